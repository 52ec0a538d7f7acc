// Posterior predictive draws and the pointwise log likelihood by tracing: the replicated
// data follows the analytic posterior predictive of a conjugate model, eight schools'
// replications agree with a simulation written here from the same draws, and log_lik is
// each observation's log density computed independently.

#include <cmath>
#include <functional>
#include <random>

#include <QtTest/QtTest>

#include "tests/support/statistics.h"
#include "engine/io/data_file.h"
#include "engine/model/compile.h"
#include "engine/variate.h"
#include "engine/workflow/posterior_predictive.h"

namespace vt = variate;
namespace vm = variate::model;
namespace vw = variate::workflow;

namespace {

constexpr double kPi = 3.14159265358979323846;

double normal_log_density(double x, double mu, double sigma) {
  const double z = (x - mu) / sigma;
  return -0.5 * std::log(2.0 * kPi) - std::log(sigma) - 0.5 * z * z;
}

vm::CompiledModel compile(const std::string& name, const std::string& text, const vt::Data& data) {
  auto result = vm::compile_model(vm::Source(name, text), &data);
  if (!result.ok()) qFatal("%s", result.report().c_str());
  return std::move(*result.model);
}

// Normal mean with known sigma: mu ~ Normal(m0, s0), y_i ~ Normal(mu, sigma).
constexpr double kM0 = 1.0, kS0 = 2.0, kSigma = 1.5;
const std::vector<double> kY = {0.3, 2.1, 1.7, -0.4, 2.9};

vm::CompiledModel normal_mean_model() {
  vt::Data data;
  data.set("N", static_cast<int64_t>(kY.size())).set("y", at::tensor(kY, at::kDouble));
  return compile("normal_mean.vmod",
                 "data N: int\ndata y: real[N]\nmu ~ Normal(1, 2)\ny ~ Normal(mu, 1.5)\n", data);
}

// The exact posterior of mu: precision-weighted (BDA3 Sec. 2.5).
std::pair<double, double> normal_mean_posterior() {
  double sum = 0.0;
  for (double y : kY) sum += y;
  const double precision = 1.0 / (kS0 * kS0) + static_cast<double>(kY.size()) / (kSigma * kSigma);
  const double mean = (kM0 / (kS0 * kS0) + sum / (kSigma * kSigma)) / precision;
  return {mean, std::sqrt(1.0 / precision)};
}

std::vector<std::vector<double>> exact_posterior_draws(int count) {
  const auto [mean, sd] = normal_mean_posterior();
  std::mt19937_64 engine(20261202);
  std::normal_distribution<double> normal(mean, sd);
  std::vector<std::vector<double>> draws;
  for (int i = 0; i < count; ++i) draws.push_back({normal(engine)});
  return draws;
}

at::Tensor column(const std::vector<std::vector<double>>& rows, size_t c) {
  std::vector<double> values;
  for (const auto& row : rows) values.push_back(row[c]);
  return at::tensor(values, at::kDouble);
}

std::string reference_folder() {
  return QT_TESTCASE_SOURCEDIR "/data/reference/eight_schools-eight_schools_noncentered/";
}

vm::CompiledModel eight_schools() {
  const auto data = vt::io::read_data_file(reference_folder() + "data.json");
  return compile(reference_folder() + "model.vmod", vt::io::read_text_file(reference_folder() + "model.vmod"),
                 data);
}

const std::vector<double> kSchoolY = {28, 8, -3, 7, -1, 1, 18, 12};
const std::vector<double> kSchoolSigma = {15, 10, 16, 11, 9, 11, 10, 18};

// Draws of (mu, tau, theta_trans[8]) near eight schools' posterior; the predictive does
// not need them to be exact, only to be the draws both simulations start from.
std::vector<std::vector<double>> school_draws(int count) {
  std::mt19937_64 engine(8);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<std::vector<double>> draws;
  for (int i = 0; i < count; ++i) {
    std::vector<double> row = {4.4 + 3.3 * normal(engine), std::abs(3.0 * normal(engine)) + 0.1};
    for (int j = 0; j < 8; ++j) row.push_back(normal(engine));
    draws.push_back(row);
  }
  return draws;
}

double school_theta(const std::vector<double>& draw, size_t j) { return draw[2 + j] * draw[1] + draw[0]; }

// Empty when every draw has `observations` log_lik values and log_lik.i is
// expected(draw, i) (to 1e-10), else the first miss.
std::string log_lik_problem(const vw::PredictiveRows& rows, const std::vector<std::vector<double>>& draws,
                            size_t observations,
                            const std::function<double(const std::vector<double>&, size_t)>& expected) {
  if (rows.log_lik.size() != draws.size()) return "one row per draw expected";
  for (size_t d = 0; d < draws.size(); ++d) {
    if (rows.log_lik[d].size() != observations) return "draw " + std::to_string(d) + ": wrong log_lik count";
    for (size_t i = 0; i < rows.log_lik[d].size(); ++i) {
      const double want = expected(draws[d], i);
      if (!(std::abs(rows.log_lik[d][i] - want) < 1e-10)) {
        return "draw " + std::to_string(d) + ", log_lik." + std::to_string(i + 1) + ": " +
               std::to_string(rows.log_lik[d][i]) + ", expected " + std::to_string(want);
      }
    }
  }
  return "";
}

// Two observed variables, for the numbering of log_lik.
vt::RandomVariable two_outcomes(const vt::Data& d) {
  auto mu = vt::Normal("mu", 0.0, 1.0);
  auto y = vt::Normal("y", mu, 1.0, {3});
  return vt::Normal("z", mu * 2.0, 0.5, {2});
}

vt::Data two_outcomes_data() {
  return vt::Data()
      .set("y", at::tensor({0.1, 0.2, 0.3}, at::kDouble))
      .set("z", at::tensor({1.0, -1.0}, at::kDouble));
}

}  // namespace

class TestPosteriorPredictive : public QObject {
  Q_OBJECT

 private slots:
  void namesFollowCmdStan() {
    const auto model = eight_schools();
    const vw::PosteriorPredictive predictive(model.log_joint(), model.layout());
    QCOMPARE(predictive.observed().size(), size_t{1});
    QCOMPARE(predictive.observed()[0].name, std::string("y"));
    QCOMPARE(predictive.parameter_columns(), int64_t{10});
    const auto replicated = predictive.replicated_names(vt::NameStyle::StanCsv);
    QCOMPARE(replicated.size(), size_t{8});
    QCOMPARE(replicated.front(), std::string("y_rep.1"));
    QCOMPARE(replicated.back(), std::string("y_rep.8"));
    QCOMPARE(predictive.log_lik_names(vt::NameStyle::Bracketed).back(), std::string("log_lik[8]"));
  }

  // A `target +=` term is scored but observes nothing: no y_rep of it, no log_lik entry (a
  // prior written by hand is not an observation), here beside an observed y.
  void targetTermsAreNoObservations() {
    vt::Data data;
    data.set("N", static_cast<int64_t>(kY.size())).set("y", at::tensor(kY, at::kDouble));
    const auto model = compile("target_term.vmod",
                               "data N: int\ndata y: real[N]\nmu ~ Normal(1, 2)\ny ~ Normal(mu, 1.5)\n"
                               "target += -0.5 * square(mu)\n",
                               data);
    const vw::PosteriorPredictive predictive(model.log_joint(), model.layout());
    QCOMPARE(predictive.observed().size(), size_t{1});
    QCOMPARE(predictive.observed()[0].name, std::string("y"));
    QCOMPARE(predictive.log_lik_names(vt::NameStyle::StanCsv).size(), kY.size());
    const auto rows = predictive.rows({{0.7}}, 1, 1);
    for (size_t i = 0; i < kY.size(); ++i) {
      QVERIFY(std::abs(rows.log_lik[0][i] - normal_log_density(kY[i], 0.7, kSigma)) < 1e-12);
    }
  }

  // (a) Given exact posterior draws of mu, y_rep_i follows the posterior predictive
  // Normal(mean, sqrt(sd^2 + sigma^2)).
  void conjugateReplicationsMatchAnalyticPredictive() {
    const auto model = normal_mean_model();
    const vw::PosteriorPredictive predictive(model.log_joint(), model.layout());
    const auto rows = predictive.rows(exact_posterior_draws(4000), 11, 1);
    const auto [mean, sd] = normal_mean_posterior();
    const double predictive_sd = std::sqrt(sd * sd + kSigma * kSigma);
    for (size_t i = 0; i < kY.size(); ++i) {
      const auto ks = vt::testing::ks_test(column(rows.replicated, i), [&](double x) {
        return vt::testing::normal_cdf((x - mean) / predictive_sd);
      });
      QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("y_rep.%1: KS p = %2").arg(i + 1).arg(ks.p_value)));
    }
    // And not the prior predictive, whose sd is sqrt(s0^2 + sigma^2) around m0.
    const auto prior = vt::testing::ks_test(column(rows.replicated, 0), [](double x) {
      return vt::testing::normal_cdf((x - kM0) / std::sqrt(kS0 * kS0 + kSigma * kSigma));
    });
    QVERIFY(prior.p_value < 1e-3);
  }

  // (c) log_lik.i is log Normal(y_i | mu, sigma) at each draw.
  void logLikIsEachObservationsDensity() {
    const auto model = normal_mean_model();
    const vw::PosteriorPredictive predictive(model.log_joint(), model.layout());
    const auto draws = exact_posterior_draws(20);
    const std::string problem = log_lik_problem(predictive.rows(draws, 1, 1), draws, kY.size(), [](const auto& draw, size_t i) {
      return normal_log_density(kY[i], draw[0], kSigma);
    });
    QVERIFY2(problem.empty(), problem.c_str());
  }

  // (b) Eight schools: y_rep_j = theta_j + sigma_j * e with theta_j computed here from the
  // same draws; the standardized residuals are standard normal, and each school's
  // replications have the mean and variance a simulation written here gives.
  void eightSchoolsMatchesIndependentSimulation() {
    const auto model = eight_schools();
    const vw::PosteriorPredictive predictive(model.log_joint(), model.layout());
    const auto draws = school_draws(4000);
    const auto rows = predictive.rows(draws, 5, 2);

    std::vector<double> residuals;
    for (size_t d = 0; d < draws.size(); ++d) {
      for (size_t j = 0; j < 8; ++j) {
        residuals.push_back((rows.replicated[d][j] - school_theta(draws[d], j)) / kSchoolSigma[j]);
      }
    }
    const auto ks = vt::testing::ks_test(at::tensor(residuals, at::kDouble), vt::testing::normal_cdf);
    QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("residuals: KS p = %1").arg(ks.p_value)));

    std::mt19937_64 engine(99);
    std::normal_distribution<double> normal(0.0, 1.0);
    for (size_t j = 0; j < 8; ++j) {
      std::vector<double> simulated;
      for (const auto& draw : draws) simulated.push_back(school_theta(draw, j) + kSchoolSigma[j] * normal(engine));
      const at::Tensor reference = at::tensor(simulated, at::kDouble);
      const std::string problem = vt::testing::check_moments(
          column(rows.replicated, j), reference.mean(), reference.var(), 5.0);
      QVERIFY2(problem.empty(), qPrintable(QString("school %1: %2").arg(j + 1).arg(problem.c_str())));
    }
  }

  void eightSchoolsLogLik() {
    const auto model = eight_schools();
    const vw::PosteriorPredictive predictive(model.log_joint(), model.layout());
    const auto draws = school_draws(10);
    const std::string problem = log_lik_problem(predictive.rows(draws, 5, 1), draws, 8, [](const auto& draw, size_t j) {
      return normal_log_density(kSchoolY[j], school_theta(draw, j), kSchoolSigma[j]);
    });
    QVERIFY2(problem.empty(), problem.c_str());
  }

  void sameSeedAndChainGiveTheSameDraws() {
    const auto model = eight_schools();
    const vw::PosteriorPredictive predictive(model.log_joint(), model.layout());
    const auto draws = school_draws(5);
    const auto first = predictive.rows(draws, 3, 1);
    QCOMPARE(predictive.rows(draws, 3, 1).replicated, first.replicated);
    QVERIFY(predictive.rows(draws, 3, 2).replicated != first.replicated);
    QVERIFY(predictive.rows(draws, 4, 1).replicated != first.replicated);
    QCOMPARE(predictive.rows(draws, 4, 2).log_lik, first.log_lik);  // no randomness in log_lik
  }

  // A chain that arrives in batches draws as one that arrives at once.
  void batchesOfAChainShareItsGenerator() {
    const auto model = eight_schools();
    const vw::PosteriorPredictive predictive(model.log_joint(), model.layout());
    const auto draws = school_draws(6);
    const auto whole = predictive.rows(draws, 3, 2);
    at::Generator generator = vw::chain_generator(3, 2);
    auto first = predictive.rows({draws.begin(), draws.begin() + 4}, generator);
    const auto second = predictive.rows({draws.begin() + 4, draws.end()}, generator);
    first.replicated.insert(first.replicated.end(), second.replicated.begin(), second.replicated.end());
    QCOMPARE(first.replicated, whole.replicated);
  }

  // A C++ model with two observed variables: log_lik numbers y's elements, then z's.
  void severalObservedVariablesAreNumberedInProgramOrder() {
    const auto log_joint = vt::make_log_joint(two_outcomes, two_outcomes_data());
    const vw::PosteriorPredictive predictive(log_joint, vt::ParameterLayout::from_model(log_joint));
    const std::vector<std::string> replicated = {"y_rep.1", "y_rep.2", "y_rep.3", "z_rep.1", "z_rep.2"};
    QCOMPARE(predictive.replicated_names(vt::NameStyle::StanCsv), replicated);
    QCOMPARE(predictive.log_lik_names(vt::NameStyle::StanCsv).size(), size_t{5});
    const double mu = 0.7;
    const auto rows = predictive.rows({{mu}}, 1, 1);
    QVERIFY(std::abs(rows.log_lik[0][2] - normal_log_density(0.3, mu, 1.0)) < 1e-12);
    QVERIFY(std::abs(rows.log_lik[0][3] - normal_log_density(1.0, 2 * mu, 0.5)) < 1e-12);
    QVERIFY(std::abs(rows.log_lik[0][4] - normal_log_density(-1.0, 2 * mu, 0.5)) < 1e-12);
  }

  // A .vmod model with two observed variables numbers log_lik as the program states them.
  void vmodObservedVariablesInProgramOrder() {
    vt::Data data = two_outcomes_data();
    const auto model = compile("two.vmod",
                               "data y: real[3]\ndata z: real[2]\nmu ~ Normal(0, 1)\ny ~ Normal(mu, 1)\n"
                               "z ~ Normal(2 * mu, 0.5)\n",
                               data);
    const vw::PosteriorPredictive predictive(model.log_joint(), model.layout());
    QCOMPARE(predictive.replicated_names(vt::NameStyle::StanCsv)[3], std::string("z_rep.1"));
    const auto rows = predictive.rows({{-0.4}}, 1, 1);
    QVERIFY(std::abs(rows.log_lik[0][0] - normal_log_density(0.1, -0.4, 1.0)) < 1e-12);
    QVERIFY(std::abs(rows.log_lik[0][4] - normal_log_density(-1.0, -0.8, 0.5)) < 1e-12);
  }

  // A logistic regression, whose likelihood samplers evaluate by a fused GLM kernel: its
  // predictive takes the general path, with one log_lik and one 0/1 draw per row.
  void fusedLikelihoodGivesPointwiseValues() {
    const std::vector<double> x = {-1.0, 0.5, 2.0, 0.0};
    const std::vector<int64_t> y = {0, 1, 1, 0};
    vt::Data data;
    data.set("N", int64_t{4}).set("K", int64_t{1});
    data.set("X", at::tensor(x, at::kDouble).reshape({4, 1})).set("y", at::tensor(y, at::kLong));
    const auto model = compile("logistic.vmod",
                               "data N: int\ndata K: int\ndata X: real[N, K]\ndata y: int[N]\n"
                               "a ~ Normal(0, 1)\nb[K] ~ Normal(0, 1)\ny ~ Bernoulli(logits = a + X @ b)\n",
                               data);
    QCOMPARE(model.fused_likelihoods().size(), size_t{1});
    const vw::PosteriorPredictive predictive(model.log_joint(), model.layout());
    const double a = 0.3, b = -1.2;
    const auto rows = predictive.rows({{a, b}}, 1, 1);
    QCOMPARE(rows.log_lik[0].size(), size_t{4});
    for (size_t i = 0; i < 4; ++i) {
      const double p = 1.0 / (1.0 + std::exp(-(a + b * x[i])));
      QVERIFY(std::abs(rows.log_lik[0][i] - std::log(y[i] == 1 ? p : 1.0 - p)) < 1e-12);
      QVERIFY(rows.replicated[0][i] == 0.0 || rows.replicated[0][i] == 1.0);
    }
  }

  void matrixReplicationsAreColumnMajor() {
    // y[2, 3] with a distinct mean per element and a tiny sigma: y_rep.i.j ~= mean[i, j].
    const auto model_fn = [](const vt::Data&) {
      auto shift = vt::Normal("shift", 0.0, 1.0);
      const at::Tensor mean = at::arange(6, at::kDouble).reshape({2, 3}) * 10.0;
      return vt::Normal("y", mean + shift, 1e-6);
    };
    const auto log_joint = vt::make_log_joint(model_fn, vt::Data().set("y", at::zeros({2, 3}, at::kDouble)));
    const vw::PosteriorPredictive predictive(log_joint, vt::ParameterLayout::from_model(log_joint));
    QCOMPARE(predictive.replicated_names(vt::NameStyle::StanCsv)[1], std::string("y_rep.2.1"));
    const auto rows = predictive.rows({{0.0}}, 1, 1);
    QVERIFY(std::abs(rows.replicated[0][1] - 30.0) < 1e-3);  // y[2,1] = row 1, column 0
    QVERIFY(std::abs(rows.replicated[0][2] - 10.0) < 1e-3);  // y[1,2]
  }

  void shortRowIsAnError() {
    const auto model = eight_schools();
    const vw::PosteriorPredictive predictive(model.log_joint(), model.layout());
    try {
      predictive.rows({{1.0, 2.0}}, 1, 1);
      QFAIL("no exception");
    } catch (const vt::ArgumentError& e) {
      QVERIFY(std::string(e.what()).find("expected at least 10") != std::string::npos);
    }
  }

  void missingParameterIsNamed() {
    const auto model = normal_mean_model();
    const vw::PosteriorPredictive predictive(model.log_joint(), model.layout());
    try {
      predictive.draw({}, at::make_generator<at::CPUGeneratorImpl>(1));
      QFAIL("no exception");
    } catch (const vt::ArgumentError& e) {
      QVERIFY(std::string(e.what()).find("'mu'") != std::string::npos);
    }
  }
};

QTEST_APPLESS_MAIN(TestPosteriorPredictive)
#include "tst_posterior_predictive.moc"
