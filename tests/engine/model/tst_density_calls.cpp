// Densities in expressions, `Normal(mu, sigma).log_prob(x)` (and log_cdf, log_ccdf): how
// they parse and print, what they compute against the formulas, elementwise with
// broadcasting, the located error of each misuse, and the hidden Markov model of
// tests/data/reference written with them against the same model with its densities
// expanded by hand: equal log densities and gradients on the tape and on LibTorch.

#include <cmath>
#include <fstream>
#include <sstream>

#include <QtTest/QtTest>

#include "engine/model/parser.h"
#include "engine/model/printer.h"
#include "engine/tape/compiler/select_target.h"
#include "tests/support/model_text.h"

namespace vm = variate::model;

namespace {

const char* kData =
    R"({"N": 3, "x": [1, 2, 3], "k": [0, 2, 5], "X": [[1, 2, 3], [4, 5, 6], [7, 8, 9]], "z": [1, 2, 3, 4]})";
const char* kHeader = "data N: int\ndata x: real[N]\ndata k: int[N]\ndata X: real[N, N]\ndata z: real[4]\n";  // 5 lines

double normal_lpdf(double y, double mu, double sigma) {
  const double z = (y - mu) / sigma;
  return -0.5 * z * z - std::log(sigma) - 0.5 * std::log(2 * M_PI);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

class TestDensityCalls : public QObject {
  Q_OBJECT

 private slots:
  void printsAsWritten_data() {
    QTest::addColumn<QString>("text");
    QTest::newRow("log_prob") << "Normal(mu, sigma).log_prob(y)";
    QTest::newRow("log_cdf of an element") << "StudentT(3, a, b).log_cdf(y[2])";
    QTest::newRow("log_ccdf") << "Exponential(rate).log_ccdf(t - 1)";
    QTest::newRow("in a sum") << "sum(Normal(0, 1).log_prob(x)) + 1";
    QTest::newRow("negated") << "-Normal(0, 1).log_prob(x)";
    QTest::newRow("raised") << "Normal(0, 1).log_prob(x) ^ 2";
    QTest::newRow("indexed") << "Normal(mu, 1).log_prob(x)[2]";
    QTest::newRow("named parameterization") << "Poisson(log_rate = a + b).log_prob(k)";
  }
  void printsAsWritten() {
    QFETCH(QString, text);
    const std::string model = "q = " + text.toStdString() + "\n";
    const std::string problem = model_text::round_trip_problem(model);
    QVERIFY2(problem.empty(), problem.c_str());
  }

  void valuesAgainstTheFormulas_data() {
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QList<double>>("expected");
    QTest::newRow("Normal") << "Normal(1, 2).log_prob(x)"
                            << QList<double>{normal_lpdf(1, 1, 2), normal_lpdf(2, 1, 2), normal_lpdf(3, 1, 2)};
    QTest::newRow("arguments broadcast") << "Normal(x, [1, 2, 4]).log_prob(0)"
                                         << QList<double>{normal_lpdf(0, 1, 1), normal_lpdf(0, 2, 2),
                                                          normal_lpdf(0, 3, 4)};
    QList<double> rows;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) rows << normal_lpdf(3 * i + j + 1, j + 1, 1);
    }
    QTest::newRow("a vector against a matrix") << "Normal(x, 1).log_prob(X)" << rows;
    QTest::newRow("Poisson") << "Poisson(2).log_prob(k)"
                             << QList<double>{-2, 2 * std::log(2.0) - 2 - std::log(2.0),
                                              5 * std::log(2.0) - 2 - std::lgamma(6.0)};
    QTest::newRow("Poisson's log rate") << "Poisson(log_rate = 0).log_prob(k)"
                                        << QList<double>{-1, -1 - std::log(2.0), -1 - std::lgamma(6.0)};
    QTest::newRow("outside the support") << "Exponential(1).log_prob(x - 2)" << QList<double>{-INFINITY, 0, -1};
    QTest::newRow("Normal's log_cdf") << "Normal(0, 1).log_cdf(x - 1)"
                                      << QList<double>{std::log(0.5), std::log(0.5 * std::erfc(-1 / std::sqrt(2.0))),
                                                       std::log(0.5 * std::erfc(-2 / std::sqrt(2.0)))};
    QTest::newRow("Exponential's log_ccdf") << "Exponential(0.5).log_ccdf(x)" << QList<double>{-0.5, -1, -1.5};
    QTest::newRow("Logistic's log_cdf") << "Logistic(1, 2).log_cdf(1)" << QList<double>{std::log(0.5)};
    QTest::newRow("Cauchy's log_ccdf") << "Cauchy(0, 1).log_ccdf(1)" << QList<double>{std::log(0.25)};
    QTest::newRow("MultiNormal, one per row")
        << "MultiNormal([0, 0, 0], [[1, 0, 0], [0, 1, 0], [0, 0, 1]]).log_prob(X)"
        << QList<double>{normal_lpdf(1, 0, 1) + normal_lpdf(2, 0, 1) + normal_lpdf(3, 0, 1),
                         normal_lpdf(4, 0, 1) + normal_lpdf(5, 0, 1) + normal_lpdf(6, 0, 1),
                         normal_lpdf(7, 0, 1) + normal_lpdf(8, 0, 1) + normal_lpdf(9, 0, 1)};
  }
  void valuesAgainstTheFormulas() {
    QFETCH(QString, expression);
    QFETCH(QList<double>, expected);
    const auto result =
        model_text::compile(kHeader + ("q = " + expression + "\nm ~ Normal(0, 1)\n").toStdString(), kData);
    QVERIFY2(result.ok(), result.report().c_str());
    const std::vector<double> got = model_text::elements_of(result.model->data_values().at("q").tensor);
    const std::string problem =
        model_text::elements_problem(got, std::vector<double>(expected.begin(), expected.end()));
    QVERIFY2(problem.empty(), problem.c_str());
  }

  void errors_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown method")
        << "q = Normal(0, 1).log_pdf(x)\n"
        << "m.vmod:6:18: error: a distribution has no method 'log_pdf'; it has log_prob(x), log_cdf(x) and log_ccdf(x)";
    QTest::newRow("not a distribution")
        << "q = x.log_prob(1)\n"
        << "m.vmod:6:5: error: '.log_prob' follows a distribution, as in Normal(mu, sigma).log_prob(x); got 'x'";
    QTest::newRow("a function") << "q = exp(x).log_prob(1)\n"
                                << "m.vmod:6:5: error: 'exp' is a function; '.log_prob' follows a distribution, as in "
                                   "Normal(mu, sigma).log_prob(x)";
    QTest::newRow("an unknown distribution")
        << "q = Normall(0, 1).log_prob(x)\n"
        << "m.vmod:6:5: error: unknown distribution 'Normall'; did you mean 'Normal'?";
    QTest::newRow("two points")
        << "q = Normal(0, 1).log_prob(x, 2)\n"
        << "m.vmod:6:28: error: 'log_prob' takes one argument, the point at which the density is evaluated";
    QTest::newRow("no point") << "q = Normal(0, 1).log_prob()\n"
                              << "m.vmod:6:27: error: expected an expression after '(', got ')'";
    QTest::newRow("a family without a cdf")
        << "q = Gamma(2, 1).log_cdf(x)\n"
        << "m.vmod:6:5: error: Gamma has no log_cdf: it has no cumulative distribution function here (log_cdf is "
           "there for Cauchy, Exponential, Logistic, Normal)";
    QTest::newRow("Mixture")
        << "q = Mixture([0.5, 0.5], Normal([0, 1], 1)).log_prob(x)\n"
        << "m.vmod:6:5: error: a Mixture's log_prob cannot be taken in an expression; write the log_sum_exp of each "
           "component's log weight plus its log_prob";
    QTest::newRow("wrong arguments") << "q = Normal(0).log_prob(x)\n"
                                     << "m.vmod:6:5: error: Normal takes 2 arguments (Normal(mu, sigma)), got 1";
    QTest::newRow("shapes that do not broadcast")
        << "q = Normal(x, 1).log_prob(z)\n"
        << "m.vmod:6:5: error: shapes [3] and [4] do not broadcast in 'Normal(x, 1).log_prob(z)'";
    QTest::newRow("argument outside its domain")
        << "q = Normal(0, x - 2).log_prob(1)\n"
        << "m.vmod:6:5: error: Normal: argument 'sigma' must be positive, got -1 (at index 1)";
  }
  void errors() {
    QFETCH(QString, model);
    QFETCH(QString, expected);
    const std::string error = model_text::first_error_of(kHeader + model.toStdString() + "m ~ Normal(0, 1)\n", kData);
    QVERIFY(!error.empty());
    QCOMPARE(QString::fromStdString(error), expected);
  }

  // hmm_example with its Normal outputs as log_prob calls, against the hand-expanded
  // densities of the same model: equal at 20 points on both backends.
  void theHiddenMarkovModelEqualsItsHandExpandedDensities() {
    const std::string folder = QT_TESTCASE_SOURCEDIR "/data/reference/hmm_example-hmm_example/";
    const std::string written = read_file(folder + "model.vmod");
    QVERIFY(written.find(".log_prob(") != std::string::npos);
    const std::string expanded = R"(data N: int
data K: int
data y: real[N]
theta1: simplex[K] ~ Dirichlet([1, 1])
theta2: simplex[K] ~ Dirichlet([1, 1])
mu: positive_ordered[K] ~ Normal([3, 10], 1)
log_transition = transpose(log([theta1, theta2]))
gamma[1] = -0.5 * square(y[1] - mu) - 0.918938533204672742
gamma[t] = log_sum_exp_rows(log_transition + gamma[t - 1]) - 0.5 * square(y[t] - mu) - 0.918938533204672742 for t in 2:N
target += log_sum_exp(gamma[N])
)";
    const std::string data = read_file(folder + "data.json");
    const auto a = model_text::compile(written, data);
    const auto b = model_text::compile(expanded, data);
    QVERIFY2(a.ok(), a.report().c_str());
    QVERIFY2(b.ok(), b.report().c_str());
    const auto tape = variate::tape::select_target(*a.model, variate::tape::Backend::automatic);
    QVERIFY2(tape.fallback_reason.empty(), tape.fallback_reason.c_str());
    const variate::UnconstrainedTarget torch = a.model->target();
    const variate::UnconstrainedTarget reference = b.model->target();
    at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(20261206);
    const at::Tensor thetas = at::randn({20, torch.dimension()}, generator, at::kDouble);
    for (int point = 0; point < 20; ++point) {
      const auto [lp_want, g_want] = reference.log_density_and_gradient(thetas[point]);
      const double want = lp_want.item<double>();
      for (const auto* target : {&torch, &tape.target}) {
        const auto [lp, g] = target->log_density_and_gradient(thetas[point]);
        QVERIFY2(std::abs(lp.item<double>() - want) <= 1e-10 * std::max(1.0, std::abs(want)),
                 qPrintable(QString("%1: %2 vs %3")
                                .arg(target->backend().c_str())
                                .arg(lp.item<double>(), 0, 'g', 17)
                                .arg(want, 0, 'g', 17)));
        QVERIFY(at::allclose(g, g_want, 1e-10, 1e-10));
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestDensityCalls)
#include "tst_density_calls.moc"
