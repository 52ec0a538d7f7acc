// Weibull(alpha, sigma) with alpha the shape and sigma the scale: density against the
// textbook formula, gradients, sampling, errors.

#include <cmath>
#include <limits>
#include <sstream>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/weibull.h"

using variate::distributions::Weibull;
namespace vtest = variate::testing;

namespace {

double naive_weibull_log_density(double x, double alpha, double sigma) {
  return std::log(alpha / sigma) + (alpha - 1) * std::log(x / sigma) - std::pow(x / sigma, alpha);
}

double weibull_mean(double alpha, double sigma) { return sigma * std::tgamma(1 + 1 / alpha); }

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

constexpr double kInf = std::numeric_limits<double>::infinity();


}  // namespace

class TestWeibull : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("sigma");
    QTest::newRow("moderate") << 1.3 << 2.0 << 3.0;
    QTest::newRow("alpha < 1 near 0") << 0.01 << 0.5 << 2.0;
    QTest::newRow("large alpha") << 1.02 << 20.0 << 1.0;
    QTest::newRow("far tail") << 50.0 << 1.5 << 2.0;
    QTest::newRow("tiny sigma") << 3e-8 << 2.0 << 1e-8;
    QTest::newRow("huge sigma") << 5e7 << 3.0 << 1e8;
  }
  void logProbMatchesFormula() {
    QFETCH(double, x);
    QFETCH(double, alpha);
    QFETCH(double, sigma);
    const double got = Weibull(scalar(alpha), scalar(sigma)).log_prob(scalar(x)).item<double>();
    const double expected = naive_weibull_log_density(x, alpha, sigma);
    QVERIFY2(std::abs(got - expected) <= 1e-12 * std::max(1.0, std::abs(expected)),
             qPrintable(QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
  }

  void logProbAtZeroIsTheDensityLimit_data() {
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<double>("expected");
    QTest::newRow("alpha = 1 is Exponential(1 / sigma)") << 1.0 << 2.5 << -std::log(2.5);
    QTest::newRow("alpha > 1 vanishes") << 2.0 << 1.0 << -kInf;
    QTest::newRow("alpha < 1 diverges") << 0.5 << 1.0 << kInf;
  }
  void logProbAtZeroIsTheDensityLimit() {
    QFETCH(double, alpha);
    QFETCH(double, sigma);
    QFETCH(double, expected);
    QCOMPARE(Weibull(scalar(alpha), scalar(sigma)).log_prob(scalar(0.0)).item<double>(), expected);
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
    QCOMPARE(Weibull(scalar(3.0), scalar(1.5)).log_prob(scalar(x)).item<double>(), -kInf);
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("sigma");
    QTest::newRow("moderate") << 0.8 << 2.0 << 1.0;
    QTest::newRow("alpha < 1") << 0.05 << 0.4 << 3.0;
    QTest::newRow("tail") << 6.0 << 5.0 << 4.0;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(double, x);
    QFETCH(double, alpha);
    QFETCH(double, sigma);
    // One vector holds (x, alpha, sigma) so a single check covers every argument.
    const auto log_prob = [](const at::Tensor& p) { return Weibull(p[1], p[2]).log_prob(p[0]); };
    const std::string error =
        vtest::compare_gradients(log_prob, at::tensor({x, alpha, sigma}, at::kDouble));
    QVERIFY2(error.empty(), error.c_str());
  }

  void valuesOutsideSupportLeaveGradientsFinite() {
    // Masked entries must contribute nothing (not NaN) to the parameters' gradients.
    const at::Tensor values = at::tensor({-kInf, -1.0, kInf, 0.5}, at::kDouble);
    const at::Tensor alpha = scalar(3.0).requires_grad_(true);
    const at::Tensor sigma = scalar(1.7).requires_grad_(true);
    Weibull(alpha, sigma).log_prob(values).sum().backward();
    const at::Tensor alpha_alone = scalar(3.0).requires_grad_(true);
    const at::Tensor sigma_alone = scalar(1.7).requires_grad_(true);
    Weibull(alpha_alone, sigma_alone).log_prob(scalar(0.5)).backward();
    QVERIFY(at::allclose(alpha.grad(), alpha_alone.grad()));
    QVERIFY(at::allclose(sigma.grad(), sigma_alone.grad()));
  }

  void batchShapesBroadcast() {
    const at::Tensor alpha = at::tensor({0.5, 2.0, 9.0}, at::kDouble).reshape({3, 1});
    const at::Tensor sigma = at::tensor({0.5, 1.0, 2.0, 4.0}, at::kDouble);
    Weibull weibull(alpha, sigma);
    QCOMPARE(weibull.batch_shape(), (variate::Shape{3, 4}));
    QVERIFY(weibull.event_shape().empty());
    const at::Tensor log_prob = weibull.log_prob(at::full({2, 1, 1}, 0.8, at::kDouble));
    QCOMPARE(log_prob.sizes(), (c10::IntArrayRef{2, 3, 4}));
    // Each batch entry uses its own parameters.
    const double expected = naive_weibull_log_density(0.8, 9.0, 4.0);
    QVERIFY(std::abs(log_prob[1][2][3].item<double>() - expected) < 1e-13);
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(weibull.sample({5}, generator).sizes(), (c10::IntArrayRef{5, 3, 4}));
  }

  void samplerMatchesMoments_data() {
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("sigma");
    QTest::newRow("alpha > 1") << 2.0 << 3.0;
    QTest::newRow("alpha < 1") << 0.8 << 0.5;
  }
  void samplerMatchesMoments() {
    // Shape then scale: swapping them changes the mean (2, 3 gives 2.66; 3, 2 gives 1.79).
    QFETCH(double, alpha);
    QFETCH(double, sigma);
    at::Generator generator = at::detail::createCPUGenerator(42);
    const at::Tensor draws = Weibull(scalar(alpha), scalar(sigma)).sample({100000}, generator);
    QVERIFY((draws > 0).all().item<bool>());
    const double mean = weibull_mean(alpha, sigma);
    const double variance = sigma * sigma * std::tgamma(1 + 2 / alpha) - mean * mean;
    const std::string error = vtest::check_moments(draws, scalar(mean), scalar(variance));
    QVERIFY2(error.empty(), error.c_str());
  }

  void samplerPassesKolmogorovSmirnov_data() {
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("sigma");
    QTest::newRow("alpha > 1") << 2.0 << 3.0;
    QTest::newRow("alpha < 1") << 0.6 << 0.5;
  }
  void samplerPassesKolmogorovSmirnov() {
    QFETCH(double, alpha);
    QFETCH(double, sigma);
    at::Generator generator = at::detail::createCPUGenerator(7);
    const at::Tensor draws = Weibull(scalar(alpha), scalar(sigma)).sample({20000}, generator);
    const auto ks = vtest::ks_test(
        draws, [&](double x) { return 1 - std::exp(-std::pow(x / sigma, alpha)); });
    QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("KS p-value %1").arg(ks.p_value)));
  }

  void samplesAreReparameterized() {
    // Each draw gets its own copy of the parameters, so the per-draw pathwise derivatives
    // average to d E[X] / d theta, with E[X] = sigma Gamma(1 + 1 / alpha); d/dalpha of the
    // closed form by central differences.
    const double alpha = 2.0;
    const double sigma = 3.0;
    const int64_t n = 100000;
    const at::Tensor alphas = at::full({n}, alpha, at::kDouble).requires_grad_(true);
    const at::Tensor sigmas = at::full({n}, sigma, at::kDouble).requires_grad_(true);
    at::Generator generator = at::detail::createCPUGenerator(11);
    Weibull(alphas, sigmas).sample({}, generator).sum().backward();
    const double h = 1e-5;
    const double dmean_dalpha =
        (weibull_mean(alpha + h, sigma) - weibull_mean(alpha - h, sigma)) / (2 * h);
    std::string error = vtest::check_mean_derivative(alphas.grad(), dmean_dalpha);
    QVERIFY2(error.empty(), ("alpha: " + error).c_str());
    error = vtest::check_mean_derivative(sigmas.grad(), weibull_mean(alpha, 1.0));
    QVERIFY2(error.empty(), ("sigma: " + error).c_str());
  }

  void samplingIsReproducible() {
    const Weibull weibull(scalar(2.0), scalar(1.0));
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const at::Tensor first = weibull.sample({10}, a);
    at::randn({7});  // the global generator must play no part
    QVERIFY(at::equal(first, weibull.sample({10}, b)));
    at::Generator c = at::detail::createCPUGenerator(4);
    QVERIFY(!at::equal(first, weibull.sample({10}, c)));
  }

  void float32StaysFloat32() {
    const Weibull weibull(at::tensor({2.0f}), at::tensor({1.5f}));
    const at::Tensor log_prob = weibull.log_prob(at::tensor({0.3f}));
    QCOMPARE(log_prob.scalar_type(), at::kFloat);
    QVERIFY(std::abs(log_prob.item<double>() - naive_weibull_log_density(0.3, 2, 1.5)) < 1e-5);
    // Small shapes push E^(1 / alpha) below float's range; draws must still be positive.
    at::Generator generator = at::detail::createCPUGenerator(5);
    const at::Tensor draws =
        Weibull(at::tensor({0.05f}), at::tensor({1.0f})).sample({10000}, generator);
    QCOMPARE(draws.scalar_type(), at::kFloat);
    QVERIFY((draws > 0).all().item<bool>());
  }

  void factoryBuildsRandomVariable() {
    const variate::RandomVariable t = variate::Weibull("t", 2.0, 0.5, {3});
    QCOMPARE(QString::fromStdString(t.name()), QString("t"));
    QCOMPARE(QString::fromStdString(t.distribution().name()), QString("Weibull"));
    QCOMPARE(t.shape(), (variate::Shape{3}));
  }

  void invalidParametersThrow_data() {
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero alpha") << 0.0 << 1.0 << QString("Weibull: argument 'alpha' must be positive, got 0");
    QTest::newRow("negative alpha") << -1.5 << 1.0 << QString("Weibull: argument 'alpha' must be positive, got -1.5");
    QTest::newRow("nan alpha") << std::nan("") << 1.0 << QString("Weibull: argument 'alpha' must be positive, got nan");
    QTest::newRow("zero sigma") << 2.0 << 0.0 << QString("Weibull: argument 'sigma' must be positive, got 0");
    QTest::newRow("negative sigma") << 2.0 << -2.0 << QString("Weibull: argument 'sigma' must be positive, got -2");
  }
  void invalidParametersThrow() {
    QFETCH(double, alpha);
    QFETCH(double, sigma);
    QFETCH(QString, message);
    try {
      Weibull(scalar(alpha), scalar(sigma));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void invalidElementIsLocated() {
    try {
      Weibull(scalar(2.0), at::tensor({1.0, 2.0, -1.0}, at::kDouble));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("Weibull: argument 'sigma' must be positive, got -1 (at index [2])"));
    }
  }
};

QTEST_APPLESS_MAIN(TestWeibull)
#include "tst_weibull.moc"
