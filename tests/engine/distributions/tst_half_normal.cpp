// HalfNormal(sigma): density against the textbook formula, gradients, sampling, errors.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/half_normal.h"

using variate::distributions::HalfNormal;
namespace vtest = variate::testing;

namespace {

double naive_half_normal_log_density(double x, double sigma) {
  return std::log(2.0) - std::log(sigma) - 0.5 * std::log(2 * M_PI) -
         x * x / (2 * sigma * sigma);
}

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

class TestHalfNormal : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("sigma");
    QTest::newRow("edge x = 0") << 0.0 << 1.0;
    QTest::newRow("edge x = 0, wide") << 0.0 << 250.0;
    QTest::newRow("near mode") << 0.7 << 1.3;
    QTest::newRow("far tail") << 40.0 << 1.0;
    QTest::newRow("tiny sigma") << 3e-9 << 1e-8;
    QTest::newRow("huge sigma") << 5.0 << 1e8;
    QTest::newRow("large x") << 1e6 << 3e5;
  }
  void logProbMatchesFormula() {
    QFETCH(double, x);
    QFETCH(double, sigma);
    const double got = HalfNormal(scalar(sigma)).log_prob(scalar(x)).item<double>();
    const double expected = naive_half_normal_log_density(x, sigma);
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
    QCOMPARE(HalfNormal(scalar(1.5)).log_prob(scalar(x)).item<double>(), -kInf);
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
    const auto log_prob = [](const at::Tensor& p) { return HalfNormal(p[1]).log_prob(p[0]); };
    const std::string error =
        vtest::compare_gradients(log_prob, at::tensor({x, sigma}, at::kDouble));
    QVERIFY2(error.empty(), error.c_str());
  }

  void valuesOutsideSupportLeaveGradientsFinite() {
    // Masked entries must contribute nothing (not NaN) to the parameters' gradient.
    const at::Tensor sigma = scalar(1.7).requires_grad_(true);
    HalfNormal(sigma).log_prob(at::tensor({-kInf, -1.0, 0.5}, at::kDouble)).sum().backward();
    const at::Tensor alone = scalar(1.7).requires_grad_(true);
    HalfNormal(alone).log_prob(scalar(0.5)).backward();
    QVERIFY2(at::allclose(sigma.grad(), alone.grad()),
             qPrintable(QString("gradient %1, expected %2")
                            .arg(sigma.grad().item<double>())
                            .arg(alone.grad().item<double>())));
  }

  void batchShapesBroadcast() {
    const at::Tensor sigma = at::linspace(0.5, 6.0, 12, at::kDouble).reshape({3, 4});
    HalfNormal half_normal(sigma);
    QCOMPARE(half_normal.batch_shape(), (variate::Shape{3, 4}));
    QVERIFY(half_normal.event_shape().empty());
    const at::Tensor log_prob = half_normal.log_prob(at::full({2, 1, 1}, 0.8, at::kDouble));
    QCOMPARE(log_prob.sizes(), (c10::IntArrayRef{2, 3, 4}));
    // Each batch entry uses its own parameter.
    QCOMPARE(log_prob[1][2][3].item<double>(), naive_half_normal_log_density(0.8, 6.0));
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(half_normal.sample({5}, generator).sizes(), (c10::IntArrayRef{5, 3, 4}));
  }

  void samplerMatchesMoments() {
    at::Generator generator = at::detail::createCPUGenerator(42);
    const double sigma = 2.0;
    const at::Tensor draws = HalfNormal(scalar(sigma)).sample({100000}, generator);
    QVERIFY((draws > 0).all().item<bool>());
    const double mean = sigma * std::sqrt(2 / M_PI);
    const double variance = sigma * sigma * (1 - 2 / M_PI);
    const std::string error = vtest::check_moments(draws, scalar(mean), scalar(variance));
    QVERIFY2(error.empty(), error.c_str());
  }

  void samplerPassesKolmogorovSmirnov() {
    at::Generator generator = at::detail::createCPUGenerator(7);
    const at::Tensor draws = HalfNormal(scalar(3.0)).sample({20000}, generator);
    const auto ks = vtest::ks_test(draws, [](double x) { return std::erf(x / (3 * M_SQRT2)); });
    QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("KS p-value %1").arg(ks.p_value)));
  }

  void samplingIsReproducible() {
    const HalfNormal half_normal(scalar(1.0));
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const at::Tensor first = half_normal.sample({10}, a);
    at::randn({7});  // the global generator must play no part
    QVERIFY(at::equal(first, half_normal.sample({10}, b)));
    at::Generator c = at::detail::createCPUGenerator(4);
    QVERIFY(!at::equal(first, half_normal.sample({10}, c)));
  }

  void float32StaysFloat32() {
    const HalfNormal half_normal(at::tensor({1.5f}));
    const at::Tensor log_prob = half_normal.log_prob(at::tensor({0.3f}));
    QCOMPARE(log_prob.scalar_type(), at::kFloat);
    QVERIFY(std::abs(log_prob.item<double>() - naive_half_normal_log_density(0.3, 1.5)) < 1e-5);
    at::Generator generator = at::detail::createCPUGenerator(5);
    QCOMPARE(half_normal.sample({3}, generator).scalar_type(), at::kFloat);
  }

  void factoryBuildsRandomVariable() {
    const variate::RandomVariable tau = variate::HalfNormal("tau", 2.5, {3});
    QCOMPARE(QString::fromStdString(tau.name()), QString("tau"));
    QCOMPARE(QString::fromStdString(tau.distribution().name()), QString("HalfNormal"));
    QCOMPARE(tau.shape(), (variate::Shape{3}));
  }

  void invalidParametersThrow_data() {
    QTest::addColumn<double>("sigma");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero sigma") << 0.0 << QString("HalfNormal: argument 'sigma' must be positive, got 0");
    QTest::newRow("negative sigma") << -2.0 << QString("HalfNormal: argument 'sigma' must be positive, got -2");
    QTest::newRow("nan sigma") << std::nan("") << QString("HalfNormal: argument 'sigma' must be positive, got nan");
  }
  void invalidParametersThrow() {
    QFETCH(double, sigma);
    QFETCH(QString, message);
    try {
      HalfNormal(scalar(sigma));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void invalidElementIsLocated() {
    try {
      HalfNormal(at::tensor({1.0, 2.0, -1.0}, at::kDouble));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("HalfNormal: argument 'sigma' must be positive, got -1 (at index [2])"));
    }
  }
};

QTEST_APPLESS_MAIN(TestHalfNormal)
#include "tst_half_normal.moc"
