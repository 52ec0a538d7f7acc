// Simulation-based calibration (Talts, Betancourt, Simpson, Vehtari & Gelman 2018): draw
// parameters from the prior, data from the model, fit with NUTS; the rank of each true
// value among (thinned) posterior draws must be uniform. Eight schools (non-centered) and
// a logistic regression, written as .vmod models and simulated here independently.
// VARIATE_SBC_REPLICATIONS sets the replications (default 30 for CI; 200 for the full run).

#include <cmath>
#include <functional>
#include <thread>

#include <QtTest/QtTest>

#include "tests/support/statistics.h"
#include "engine/mcmc/sample.h"
#include "engine/model/compile.h"

namespace vm = variate::model;
namespace vt = variate;

namespace {

const char* kEightSchools = R"(data J: int
data y: real[J]
data sigma: real[J]
mu ~ Normal(0, 5)
tau ~ HalfCauchy(5)
theta_trans[J] ~ Normal(0, 1)
theta = theta_trans * tau + mu
y ~ Normal(theta, sigma)
)";

const char* kLogistic = R"(data N: int
data K: int
data X: real[N, K]
data y: int[N]
alpha ~ Normal(0, 2.5)
beta[K] ~ Normal(0, 2.5)
y ~ Bernoulli(logits = alpha + X @ beta)
)";

struct Simulation {
  vt::Data data;
  std::vector<double> truth;  // the checked parameters, in the order they are named
};

struct Case {
  const char* model;
  std::vector<std::string> parameters;  // as flat unconstrained-vector entries: name, element
  std::vector<std::pair<std::string, int64_t>> elements;
  std::function<Simulation(at::Generator&)> simulate;
};

Simulation simulate_eight_schools(at::Generator& g) {
  const double mu = at::normal(0.0, 5.0, {}, g, at::kDouble).item<double>();
  const double tau = std::abs(5.0 * std::tan(M_PI * (at::rand({}, g, at::kDouble).item<double>() - 0.5)));
  const at::Tensor theta_trans = at::normal(0.0, 1.0, {8}, g, at::kDouble);
  const at::Tensor sigma = at::tensor({15.0, 10.0, 16.0, 11.0, 9.0, 11.0, 10.0, 18.0}, at::kDouble);
  const at::Tensor y = at::normal(0.0, 1.0, {8}, g, at::kDouble) * sigma + theta_trans * tau + mu;
  Simulation s;
  s.data.set("J", int64_t{8}).set("y", y).set("sigma", sigma);
  s.truth = {mu, tau, theta_trans[0].item<double>()};
  return s;
}

Simulation simulate_logistic(at::Generator& g) {
  const int64_t n = 40, k = 2;
  const at::Tensor x = at::normal(0.0, 1.0, {n, k}, g, at::kDouble);
  const double alpha = at::normal(0.0, 2.5, {}, g, at::kDouble).item<double>();
  const at::Tensor beta = at::normal(0.0, 2.5, {k}, g, at::kDouble);
  const at::Tensor p = at::sigmoid(alpha + at::mv(x, beta));
  const at::Tensor y = (at::rand({n}, g, at::kDouble) < p).to(at::kLong);
  Simulation s;
  s.data.set("N", n).set("K", k).set("X", x).set("y", y);
  s.truth = {alpha, beta[0].item<double>(), beta[1].item<double>()};
  return s;
}

// Ranks of the true values among `draws` thinned to `kept` (each in 0..kept).
std::vector<int> ranks(const vm::CompileResult& compiled, const Simulation& s,
                       const std::vector<std::pair<std::string, int64_t>>& elements, uint64_t seed,
                       int kept) {
  const auto& model = *compiled.model;
  const int thin = 3;
  const auto chains = vt::sample_nuts(
      model.target(),
      vt::NutsOptions().chains(1).warmup(300).draws(kept * thin).seed(seed).threads(1));
  const auto& chain = chains[0];
  std::vector<int> result(elements.size(), 0);
  for (int i = 0; i < kept; ++i) {
    const auto& q = chain.positions[chain.warmup_iterations + i * thin];
    const auto values = model.layout().constrain(at::tensor(q, at::kDouble)).values;
    for (size_t e = 0; e < elements.size(); ++e) {
      const double draw = values.at(elements[e].first).reshape(-1)[elements[e].second].item<double>();
      result[e] += draw < s.truth[e];
    }
  }
  return result;
}

double chi_square_p_value(const std::vector<int>& counts) {
  double total = 0;
  for (int c : counts) total += c;
  const double expected = total / counts.size();
  double statistic = 0;
  for (int c : counts) statistic += (c - expected) * (c - expected) / expected;
  const double df = counts.size() - 1.0;
  return 1.0 - variate::testing::incomplete_gamma(df / 2, statistic / 2);
}

}  // namespace

class TestSbc : public QObject {
  Q_OBJECT

 private slots:
  void ranksAreUniform_data() {
    QTest::addColumn<QString>("name");
    QTest::newRow("eight schools") << "eight schools";
    QTest::newRow("logistic regression") << "logistic regression";
  }
  void ranksAreUniform() {
    QFETCH(QString, name);
    const bool schools = name == "eight schools";
    const std::vector<std::pair<std::string, int64_t>> elements =
        schools ? std::vector<std::pair<std::string, int64_t>>{{"mu", 0}, {"tau", 0}, {"theta_trans", 0}}
                : std::vector<std::pair<std::string, int64_t>>{{"alpha", 0}, {"beta", 0}, {"beta", 1}};
    const int replications = qEnvironmentVariableIsSet("VARIATE_SBC_REPLICATIONS")
                                 ? qEnvironmentVariableIntValue("VARIATE_SBC_REPLICATIONS") : 30;
    const int kept = 99;  // ranks 0..99: 100 values, 5 bins of 20
    const int bins = replications >= 100 ? 10 : 5;
    std::vector<std::vector<int>> histograms(elements.size(), std::vector<int>(bins, 0));
    at::Generator generator = at::detail::createCPUGenerator(schools ? 2018 : 2019);
    for (int r = 0; r < replications; ++r) {
      const Simulation s = schools ? simulate_eight_schools(generator) : simulate_logistic(generator);
      const auto compiled = vm::compile_model(vm::Source("sbc.vmod", schools ? kEightSchools : kLogistic), &s.data);
      QVERIFY2(compiled.ok(), compiled.report().c_str());
      const auto r_ranks = ranks(compiled, s, elements, 1000 + r, kept);
      for (size_t e = 0; e < elements.size(); ++e) ++histograms[e][r_ranks[e] * bins / (kept + 1)];
    }
    for (size_t e = 0; e < elements.size(); ++e) {
      const double p = chi_square_p_value(histograms[e]);
      QString counts;
      for (int c : histograms[e]) counts += QString::number(c) + " ";
      const QString report = QString("%1[%2]: rank histogram %3(chi-square p = %4, %5 replications)")
                                 .arg(QString::fromStdString(elements[e].first))
                                 .arg(elements[e].second).arg(counts).arg(p).arg(replications);
      qInfo("%s", qPrintable(report));
      QVERIFY2(p > 0.001, qPrintable(report));
    }
  }
};

QTEST_APPLESS_MAIN(TestSbc)
#include "tst_sbc.moc"
