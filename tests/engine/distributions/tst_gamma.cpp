// Gamma(alpha, beta) with beta a RATE: density against the textbook formula, gradients,
// sampling, errors.

#include <cmath>
#include <limits>
#include <sstream>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/gamma.h"

using variate::distributions::Gamma;
namespace vtest = variate::testing;

namespace {

double naive_gamma_log_density(double x, double alpha, double beta) {
  return alpha * std::log(beta) - std::lgamma(alpha) + (alpha - 1) * std::log(x) - beta * x;
}

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

constexpr double kInf = std::numeric_limits<double>::infinity();


}  // namespace

class TestGamma : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::newRow("moderate") << 1.3 << 2.0 << 3.0;
    QTest::newRow("alpha < 1 near 0") << 1e-5 << 0.3 << 2.0;
    QTest::newRow("tiny alpha") << 0.5 << 1e-3 << 1.0;
    QTest::newRow("large alpha") << 1.01 << 50.0 << 50.0;
    QTest::newRow("far tail") << 200.0 << 2.0 << 1.5;
    QTest::newRow("tiny rate") << 1e8 << 3.0 << 1e-8;
    QTest::newRow("huge rate") << 1e-8 << 2.0 << 1e8;
  }
  void logProbMatchesFormula() {
    QFETCH(double, x);
    QFETCH(double, alpha);
    QFETCH(double, beta);
    const double got = Gamma(scalar(alpha), scalar(beta)).log_prob(scalar(x)).item<double>();
    const double expected = naive_gamma_log_density(x, alpha, beta);
    QVERIFY2(std::abs(got - expected) <= 1e-12 * std::max(1.0, std::abs(expected)),
             qPrintable(QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
  }

  void logProbAtZeroIsTheDensityLimit_data() {
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::addColumn<double>("expected");
    QTest::newRow("alpha = 1 is Exponential(beta)") << 1.0 << 2.5 << std::log(2.5);
    QTest::newRow("alpha > 1 vanishes") << 2.0 << 1.0 << -kInf;
    QTest::newRow("alpha < 1 diverges") << 0.5 << 1.0 << kInf;
  }
  void logProbAtZeroIsTheDensityLimit() {
    QFETCH(double, alpha);
    QFETCH(double, beta);
    QFETCH(double, expected);
    QCOMPARE(Gamma(scalar(alpha), scalar(beta)).log_prob(scalar(0.0)).item<double>(), expected);
  }

  void logProbOutsideSupportIsMinusInfinity_data() {
    QTest::addColumn<double>("x");
    QTest::newRow("just below 0") << -1e-300;
    QTest::newRow("negative") << -2.0;
    QTest::newRow("minus infinity") << -kInf;
    QTest::newRow("plus infinity") << kInf;
    QTest::newRow("nan") << std::nan("");
  }
  void logProbOutsideSupportIsMinusInfinity() {
    QFETCH(double, x);
    QCOMPARE(Gamma(scalar(3.0), scalar(1.5)).log_prob(scalar(x)).item<double>(), -kInf);
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::newRow("moderate") << 0.8 << 2.0 << 1.0;
    QTest::newRow("alpha < 1") << 0.05 << 0.4 << 3.0;
    QTest::newRow("tail") << 40.0 << 5.0 << 0.5;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(double, x);
    QFETCH(double, alpha);
    QFETCH(double, beta);
    // One vector holds (x, alpha, beta) so a single check covers every argument.
    const auto log_prob = [](const at::Tensor& p) { return Gamma(p[1], p[2]).log_prob(p[0]); };
    const std::string error =
        vtest::compare_gradients(log_prob, at::tensor({x, alpha, beta}, at::kDouble));
    QVERIFY2(error.empty(), error.c_str());
  }

  void valuesOutsideSupportLeaveGradientsFinite() {
    // Masked entries must contribute nothing (not NaN) to the parameters' gradients.
    const at::Tensor values = at::tensor({-kInf, -1.0, kInf, 0.5}, at::kDouble);
    const at::Tensor alpha = scalar(3.0).requires_grad_(true);
    const at::Tensor beta = scalar(1.7).requires_grad_(true);
    Gamma(alpha, beta).log_prob(values).sum().backward();
    const at::Tensor alpha_alone = scalar(3.0).requires_grad_(true);
    const at::Tensor beta_alone = scalar(1.7).requires_grad_(true);
    Gamma(alpha_alone, beta_alone).log_prob(scalar(0.5)).backward();
    QVERIFY(at::allclose(alpha.grad(), alpha_alone.grad()));
    QVERIFY(at::allclose(beta.grad(), beta_alone.grad()));
  }

  void batchShapesBroadcast() {
    const at::Tensor alpha = at::tensor({0.5, 2.0, 9.0}, at::kDouble).reshape({3, 1});
    const at::Tensor beta = at::tensor({0.5, 1.0, 2.0, 4.0}, at::kDouble);
    Gamma gamma(alpha, beta);
    QCOMPARE(gamma.batch_shape(), (variate::Shape{3, 4}));
    QVERIFY(gamma.event_shape().empty());
    const at::Tensor log_prob = gamma.log_prob(at::full({2, 1, 1}, 0.8, at::kDouble));
    QCOMPARE(log_prob.sizes(), (c10::IntArrayRef{2, 3, 4}));
    // Each batch entry uses its own parameters.
    const double expected = naive_gamma_log_density(0.8, 9.0, 4.0);
    QVERIFY(std::abs(log_prob[1][2][3].item<double>() - expected) < 1e-13);
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(gamma.sample({5}, generator).sizes(), (c10::IntArrayRef{5, 3, 4}));
  }

  void samplerMatchesMoments_data() {
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::newRow("alpha > 1") << 3.0 << 2.0;
    QTest::newRow("alpha < 1") << 0.5 << 4.0;
  }
  void samplerMatchesMoments() {
    // beta is a rate: mean alpha / beta (a scale would give alpha beta).
    QFETCH(double, alpha);
    QFETCH(double, beta);
    at::Generator generator = at::detail::createCPUGenerator(42);
    const at::Tensor draws = Gamma(scalar(alpha), scalar(beta)).sample({100000}, generator);
    QVERIFY((draws > 0).all().item<bool>());
    const std::string error =
        vtest::check_moments(draws, scalar(alpha / beta), scalar(alpha / (beta * beta)));
    QVERIFY2(error.empty(), error.c_str());
  }

  void samplerPassesKolmogorovSmirnov_data() {
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::newRow("alpha > 1") << 2.5 << 4.0;
    QTest::newRow("alpha < 1") << 0.4 << 0.5;
    QTest::newRow("large alpha") << 30.0 << 2.0;
  }
  void samplerPassesKolmogorovSmirnov() {
    QFETCH(double, alpha);
    QFETCH(double, beta);
    at::Generator generator = at::detail::createCPUGenerator(7);
    const at::Tensor draws = Gamma(scalar(alpha), scalar(beta)).sample({20000}, generator);
    const auto ks =
        vtest::ks_test(draws, [&](double x) { return vtest::incomplete_gamma(alpha, beta * x); });
    QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("KS p-value %1").arg(ks.p_value)));
  }

  void samplesAreReparameterized_data() {
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::newRow("alpha > 1") << 3.0 << 2.0;
    QTest::newRow("alpha < 1") << 0.4 << 1.5;
  }
  void samplesAreReparameterized() {
    // Each draw gets its own copy of the parameters, so the per-draw pathwise derivatives
    // average to d E[X] / d theta: E[X] = alpha / beta.
    QFETCH(double, alpha);
    QFETCH(double, beta);
    const int64_t n = 100000;
    const at::Tensor alphas = at::full({n}, alpha, at::kDouble).requires_grad_(true);
    const at::Tensor betas = at::full({n}, beta, at::kDouble).requires_grad_(true);
    at::Generator generator = at::detail::createCPUGenerator(11);
    Gamma(alphas, betas).sample({}, generator).sum().backward();
    std::string error = vtest::check_mean_derivative(alphas.grad(), 1 / beta);
    QVERIFY2(error.empty(), ("alpha: " + error).c_str());
    error = vtest::check_mean_derivative(betas.grad(), -alpha / (beta * beta));
    QVERIFY2(error.empty(), ("beta: " + error).c_str());
  }

  void samplingIsReproducible() {
    const Gamma gamma(scalar(2.0), scalar(1.0));
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const at::Tensor first = gamma.sample({10}, a);
    at::randn({7});  // the global generator must play no part
    QVERIFY(at::equal(first, gamma.sample({10}, b)));
    at::Generator c = at::detail::createCPUGenerator(4);
    QVERIFY(!at::equal(first, gamma.sample({10}, c)));
  }

  void float32StaysFloat32() {
    const Gamma gamma(at::tensor({2.0f}), at::tensor({1.5f}));
    const at::Tensor log_prob = gamma.log_prob(at::tensor({0.3f}));
    QCOMPARE(log_prob.scalar_type(), at::kFloat);
    QVERIFY(std::abs(log_prob.item<double>() - naive_gamma_log_density(0.3, 2, 1.5)) < 1e-5);
    // Tiny shapes underflow float's range often; draws must still be positive.
    at::Generator generator = at::detail::createCPUGenerator(5);
    const at::Tensor draws = Gamma(at::tensor({0.02f}), at::tensor({1.0f})).sample({10000}, generator);
    QCOMPARE(draws.scalar_type(), at::kFloat);
    QVERIFY((draws > 0).all().item<bool>());
  }

  void factoryBuildsRandomVariable() {
    const variate::RandomVariable lambda = variate::Gamma("lambda", 2.0, 0.5, {3});
    QCOMPARE(QString::fromStdString(lambda.name()), QString("lambda"));
    QCOMPARE(QString::fromStdString(lambda.distribution().name()), QString("Gamma"));
    QCOMPARE(lambda.shape(), (variate::Shape{3}));
  }

  void invalidParametersThrow_data() {
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero alpha") << 0.0 << 1.0 << QString("Gamma: argument 'alpha' must be positive, got 0");
    QTest::newRow("negative alpha") << -1.5 << 1.0 << QString("Gamma: argument 'alpha' must be positive, got -1.5");
    QTest::newRow("nan alpha") << std::nan("") << 1.0 << QString("Gamma: argument 'alpha' must be positive, got nan");
    QTest::newRow("zero beta") << 2.0 << 0.0 << QString("Gamma: argument 'beta' must be positive, got 0");
    QTest::newRow("negative beta") << 2.0 << -2.0 << QString("Gamma: argument 'beta' must be positive, got -2");
  }
  void invalidParametersThrow() {
    QFETCH(double, alpha);
    QFETCH(double, beta);
    QFETCH(QString, message);
    try {
      Gamma(scalar(alpha), scalar(beta));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void invalidElementIsLocated() {
    try {
      Gamma(scalar(2.0), at::tensor({1.0, 2.0, -1.0}, at::kDouble));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("Gamma: argument 'beta' must be positive, got -1 (at index [2])"));
    }
  }
};

QTEST_APPLESS_MAIN(TestGamma)
#include "tst_gamma.moc"
