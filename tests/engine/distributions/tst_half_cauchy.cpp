// HalfCauchy(sigma): density against the textbook formula, gradients, sampling, errors.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/half_cauchy.h"

using variate::distributions::HalfCauchy;
namespace vtest = variate::testing;

namespace {

double naive_half_cauchy_log_density(double x, double sigma) {
  const double z = x / sigma;
  return std::log(2.0) - std::log(M_PI) - std::log(sigma) - std::log(1 + z * z);
}

double half_cauchy_quantile(double p, double sigma) { return sigma * std::tan(M_PI * p / 2); }

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

class TestHalfCauchy : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("sigma");
    QTest::newRow("edge x = 0") << 0.0 << 1.0;
    QTest::newRow("edge x = 0, wide") << 0.0 << 250.0;
    QTest::newRow("near mode") << 0.7 << 1.3;
    QTest::newRow("far tail") << 1e10 << 1.0;
    QTest::newRow("tiny sigma") << 3e-8 << 1e-8;
    QTest::newRow("huge sigma") << 5.0 << 1e8;
  }
  void logProbMatchesFormula() {
    QFETCH(double, x);
    QFETCH(double, sigma);
    const double got = HalfCauchy(scalar(sigma)).log_prob(scalar(x)).item<double>();
    const double expected = naive_half_cauchy_log_density(x, sigma);
    QVERIFY2(std::abs(got - expected) <= 1e-12 * std::max(1.0, std::abs(expected)),
             qPrintable(QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
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
    QCOMPARE(HalfCauchy(scalar(1.5)).log_prob(scalar(x)).item<double>(), -kInf);
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("sigma");
    QTest::newRow("near mode") << 0.1 << 1.0;
    QTest::newRow("tail") << 5.0 << 0.7;
    QTest::newRow("wide") << 100.0 << 50.0;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(double, x);
    QFETCH(double, sigma);
    // One vector holds (x, sigma) so a single check covers every argument.
    const auto log_prob = [](const at::Tensor& p) { return HalfCauchy(p[1]).log_prob(p[0]); };
    const std::string error =
        vtest::compare_gradients(log_prob, at::tensor({x, sigma}, at::kDouble));
    QVERIFY2(error.empty(), error.c_str());
  }

  void valuesOutsideSupportLeaveGradientsFinite() {
    // Masked entries must contribute nothing (not NaN) to the parameters' gradient.
    const at::Tensor sigma = scalar(1.7).requires_grad_(true);
    HalfCauchy(sigma).log_prob(at::tensor({-kInf, -1.0, kInf, 0.5}, at::kDouble)).sum().backward();
    const at::Tensor alone = scalar(1.7).requires_grad_(true);
    HalfCauchy(alone).log_prob(scalar(0.5)).backward();
    QVERIFY2(at::allclose(sigma.grad(), alone.grad()),
             qPrintable(QString("gradient %1, expected %2")
                            .arg(sigma.grad().item<double>())
                            .arg(alone.grad().item<double>())));
  }

  void batchShapesBroadcast() {
    const at::Tensor sigma = at::linspace(0.5, 6.0, 12, at::kDouble).reshape({3, 4});
    HalfCauchy half_cauchy(sigma);
    QCOMPARE(half_cauchy.batch_shape(), (variate::Shape{3, 4}));
    QVERIFY(half_cauchy.event_shape().empty());
    const at::Tensor log_prob = half_cauchy.log_prob(at::full({2, 1, 1}, 0.8, at::kDouble));
    QCOMPARE(log_prob.sizes(), (c10::IntArrayRef{2, 3, 4}));
    // Each batch entry uses its own parameter.
    QCOMPARE(log_prob[1][2][3].item<double>(), naive_half_cauchy_log_density(0.8, 6.0));
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(half_cauchy.sample({5}, generator).sizes(), (c10::IntArrayRef{5, 3, 4}));
  }

  void samplerMatchesQuartiles_data() {
    QTest::addColumn<double>("p");
    QTest::newRow("lower quartile") << 0.25;
    QTest::newRow("median") << 0.5;
    QTest::newRow("upper quartile") << 0.75;
  }
  void samplerMatchesQuartiles() {
    // The half-Cauchy has no mean or variance, so the moment check does not apply.
    // Instead the fraction of draws below the true p-quantile is Binomial(n, p) / n, whose
    // standard error is sqrt(p (1 - p) / n); it must lie within 5 of them of p.
    QFETCH(double, p);
    const double sigma = 2.0;
    at::Generator generator = at::detail::createCPUGenerator(42);
    const at::Tensor draws = HalfCauchy(scalar(sigma)).sample({100000}, generator);
    QVERIFY((draws > 0).all().item<bool>());
    const double n = static_cast<double>(draws.numel());
    const double fraction =
        (draws <= half_cauchy_quantile(p, sigma)).to(at::kDouble).mean().item<double>();
    const double standard_error = std::sqrt(p * (1 - p) / n);
    QVERIFY2(std::abs(fraction - p) <= 5 * standard_error,
             qPrintable(QString("fraction below the %1-quantile is %2").arg(p).arg(fraction)));
  }

  void samplerPassesKolmogorovSmirnov() {
    at::Generator generator = at::detail::createCPUGenerator(7);
    const at::Tensor draws = HalfCauchy(scalar(3.0)).sample({20000}, generator);
    const auto ks = vtest::ks_test(draws, [](double x) { return 2 / M_PI * std::atan(x / 3); });
    QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("KS p-value %1").arg(ks.p_value)));
  }

  void samplingIsReproducible() {
    const HalfCauchy half_cauchy(scalar(1.0));
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const at::Tensor first = half_cauchy.sample({10}, a);
    at::randn({7});  // the global generator must play no part
    QVERIFY(at::equal(first, half_cauchy.sample({10}, b)));
    at::Generator c = at::detail::createCPUGenerator(4);
    QVERIFY(!at::equal(first, half_cauchy.sample({10}, c)));
  }

  void float32StaysFloat32() {
    const HalfCauchy half_cauchy(at::tensor({1.5f}));
    const at::Tensor log_prob = half_cauchy.log_prob(at::tensor({0.3f}));
    QCOMPARE(log_prob.scalar_type(), at::kFloat);
    QVERIFY(std::abs(log_prob.item<double>() - naive_half_cauchy_log_density(0.3, 1.5)) < 1e-5);
    at::Generator generator = at::detail::createCPUGenerator(5);
    const at::Tensor draws = half_cauchy.sample({100000}, generator);
    QCOMPARE(draws.scalar_type(), at::kFloat);
    QVERIFY((draws > 0).all().item<bool>());
  }

  void factoryBuildsRandomVariable() {
    const variate::RandomVariable tau = variate::HalfCauchy("tau", 2.5, {3});
    QCOMPARE(QString::fromStdString(tau.name()), QString("tau"));
    QCOMPARE(QString::fromStdString(tau.distribution().name()), QString("HalfCauchy"));
    QCOMPARE(tau.shape(), (variate::Shape{3}));
  }

  void invalidParametersThrow_data() {
    QTest::addColumn<double>("sigma");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero sigma") << 0.0 << QString("HalfCauchy: argument 'sigma' must be positive, got 0");
    QTest::newRow("negative sigma") << -2.0 << QString("HalfCauchy: argument 'sigma' must be positive, got -2");
    QTest::newRow("nan sigma") << std::nan("") << QString("HalfCauchy: argument 'sigma' must be positive, got nan");
  }
  void invalidParametersThrow() {
    QFETCH(double, sigma);
    QFETCH(QString, message);
    try {
      HalfCauchy(scalar(sigma));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void invalidElementIsLocated() {
    try {
      HalfCauchy(at::tensor({1.0, 2.0, -1.0}, at::kDouble));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("HalfCauchy: argument 'sigma' must be positive, got -1 (at index [2])"));
    }
  }
};

QTEST_APPLESS_MAIN(TestHalfCauchy)
#include "tst_half_cauchy.moc"
