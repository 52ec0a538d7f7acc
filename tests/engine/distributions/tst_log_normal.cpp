// LogNormal(mu, sigma): density against the textbook formula, gradients, sampling, errors.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/log_normal.h"

using variate::distributions::LogNormal;
namespace vtest = variate::testing;

namespace {

double naive_log_normal_log_density(double x, double mu, double sigma) {
  const double z = (std::log(x) - mu) / sigma;
  return -std::log(x) - std::log(sigma) - 0.5 * std::log(2 * M_PI) - 0.5 * z * z;
}

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

class TestLogNormal : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("sigma");
    QTest::newRow("standard at 1") << 1.0 << 0.0 << 1.0;
    QTest::newRow("shifted and scaled") << 1.3 << -0.4 << 2.5;
    QTest::newRow("tiny x") << 1e-300 << 0.0 << 1.0;
    QTest::newRow("huge x") << 1e300 << 2.0 << 3.0;
    QTest::newRow("tiny sigma") << 2.0 << 0.6931 << 1e-4;
    QTest::newRow("huge sigma") << 5.0 << 7.0 << 1e8;
  }
  void logProbMatchesFormula() {
    QFETCH(double, x);
    QFETCH(double, mu);
    QFETCH(double, sigma);
    const double got = LogNormal(scalar(mu), scalar(sigma)).log_prob(scalar(x)).item<double>();
    const double expected = naive_log_normal_log_density(x, mu, sigma);
    QVERIFY2(std::abs(got - expected) <= 1e-12 * std::max(1.0, std::abs(expected)),
             qPrintable(QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
  }

  void logProbOutsideSupportIsMinusInfinity_data() {
    QTest::addColumn<double>("x");
    QTest::newRow("zero (density limit)") << 0.0;
    QTest::newRow("negative") << -2.0;
    QTest::newRow("minus infinity") << -kInf;
    QTest::newRow("plus infinity") << kInf;
    QTest::newRow("nan") << std::nan("");
  }
  void logProbOutsideSupportIsMinusInfinity() {
    QFETCH(double, x);
    QCOMPARE(LogNormal(scalar(0.0), scalar(1.5)).log_prob(scalar(x)).item<double>(), -kInf);
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("sigma");
    QTest::newRow("near mode") << 0.5 << 0.0 << 1.0;
    QTest::newRow("tail") << 50.0 << -1.0 << 0.7;
    QTest::newRow("wide") << 0.01 << 3.0 << 5.0;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(double, x);
    QFETCH(double, mu);
    QFETCH(double, sigma);
    // One vector holds (x, mu, sigma) so a single check covers every argument.
    const auto log_prob = [](const at::Tensor& p) { return LogNormal(p[1], p[2]).log_prob(p[0]); };
    const std::string error =
        vtest::compare_gradients(log_prob, at::tensor({x, mu, sigma}, at::kDouble));
    QVERIFY2(error.empty(), error.c_str());
  }

  void valuesOutsideSupportLeaveGradientsFinite() {
    // Masked entries must contribute nothing (not NaN) to the parameters' gradients.
    const at::Tensor values = at::tensor({-kInf, -1.0, 0.0, kInf, 0.5}, at::kDouble);
    const at::Tensor mu = scalar(0.3).requires_grad_(true);
    const at::Tensor sigma = scalar(1.7).requires_grad_(true);
    LogNormal(mu, sigma).log_prob(values).sum().backward();
    const at::Tensor mu_alone = scalar(0.3).requires_grad_(true);
    const at::Tensor sigma_alone = scalar(1.7).requires_grad_(true);
    LogNormal(mu_alone, sigma_alone).log_prob(scalar(0.5)).backward();
    QVERIFY(at::allclose(mu.grad(), mu_alone.grad()));
    QVERIFY(at::allclose(sigma.grad(), sigma_alone.grad()));
  }

  void batchShapesBroadcast() {
    const at::Tensor mu = at::tensor({-1.0, 0.0, 2.0}, at::kDouble).reshape({3, 1});
    const at::Tensor sigma = at::tensor({0.5, 1.0, 2.0, 4.0}, at::kDouble);
    LogNormal log_normal(mu, sigma);
    QCOMPARE(log_normal.batch_shape(), (variate::Shape{3, 4}));
    QVERIFY(log_normal.event_shape().empty());
    const at::Tensor log_prob = log_normal.log_prob(at::full({2, 1, 1}, 0.8, at::kDouble));
    QCOMPARE(log_prob.sizes(), (c10::IntArrayRef{2, 3, 4}));
    // Each batch entry uses its own parameters.
    const double expected = naive_log_normal_log_density(0.8, 2.0, 4.0);
    QVERIFY(std::abs(log_prob[1][2][3].item<double>() - expected) < 1e-14);
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(log_normal.sample({5}, generator).sizes(), (c10::IntArrayRef{5, 3, 4}));
  }

  void samplerMatchesMoments() {
    at::Generator generator = at::detail::createCPUGenerator(42);
    const double mu = 0.5;
    const double sigma = 0.25;
    const at::Tensor draws = LogNormal(scalar(mu), scalar(sigma)).sample({100000}, generator);
    QVERIFY((draws > 0).all().item<bool>());
    const double mean = std::exp(mu + sigma * sigma / 2);
    const double variance = std::expm1(sigma * sigma) * std::exp(2 * mu + sigma * sigma);
    const std::string error = vtest::check_moments(draws, scalar(mean), scalar(variance));
    QVERIFY2(error.empty(), error.c_str());
  }

  void samplerPassesKolmogorovSmirnov() {
    at::Generator generator = at::detail::createCPUGenerator(7);
    const at::Tensor draws = LogNormal(scalar(-2.0), scalar(3.0)).sample({20000}, generator);
    const auto ks = vtest::ks_test(
        draws, [](double x) { return vtest::normal_cdf((std::log(x) + 2) / 3); });
    QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("KS p-value %1").arg(ks.p_value)));
  }

  void samplingIsReproducible() {
    const LogNormal log_normal(scalar(0.0), scalar(1.0));
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const at::Tensor first = log_normal.sample({10}, a);
    at::randn({7});  // the global generator must play no part
    QVERIFY(at::equal(first, log_normal.sample({10}, b)));
    at::Generator c = at::detail::createCPUGenerator(4);
    QVERIFY(!at::equal(first, log_normal.sample({10}, c)));
  }

  void float32StaysFloat32() {
    const LogNormal log_normal(at::tensor({0.2f}), at::tensor({1.5f}));
    const at::Tensor log_prob = log_normal.log_prob(at::tensor({0.3f}));
    QCOMPARE(log_prob.scalar_type(), at::kFloat);
    QVERIFY(std::abs(log_prob.item<double>() - naive_log_normal_log_density(0.3, 0.2, 1.5)) < 1e-5);
    at::Generator generator = at::detail::createCPUGenerator(5);
    QCOMPARE(log_normal.sample({3}, generator).scalar_type(), at::kFloat);
  }

  void factoryBuildsRandomVariable() {
    const variate::RandomVariable y = variate::LogNormal("y", 0.0, 2.5, {3});
    QCOMPARE(QString::fromStdString(y.name()), QString("y"));
    QCOMPARE(QString::fromStdString(y.distribution().name()), QString("LogNormal"));
    QCOMPARE(y.shape(), (variate::Shape{3}));
  }

  void invalidParametersThrow_data() {
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero sigma") << 0.0 << 0.0 << QString("LogNormal: argument 'sigma' must be positive, got 0");
    QTest::newRow("negative sigma") << 0.0 << -2.0 << QString("LogNormal: argument 'sigma' must be positive, got -2");
    QTest::newRow("nan sigma") << 0.0 << std::nan("") << QString("LogNormal: argument 'sigma' must be positive, got nan");
    QTest::newRow("infinite mu") << kInf << 1.0 << QString("LogNormal: argument 'mu' must be finite, got inf");
  }
  void invalidParametersThrow() {
    QFETCH(double, mu);
    QFETCH(double, sigma);
    QFETCH(QString, message);
    try {
      LogNormal(scalar(mu), scalar(sigma));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void invalidElementIsLocated() {
    try {
      LogNormal(scalar(0.0), at::tensor({1.0, 2.0, -1.0}, at::kDouble));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("LogNormal: argument 'sigma' must be positive, got -1 (at index [2])"));
    }
  }
};

QTEST_APPLESS_MAIN(TestLogNormal)
#include "tst_log_normal.moc"
