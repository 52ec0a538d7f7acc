// Normal(mu, sigma): density against the textbook formula, gradients, sampling, errors.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/normal.h"

using variate::distributions::Normal;
namespace vtest = variate::testing;

namespace {

double naive_normal_log_density(double x, double mu, double sigma) {
  const double z = (x - mu) / sigma;
  return -0.5 * z * z - std::log(sigma) - 0.5 * std::log(2 * M_PI);
}

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

}  // namespace

class TestNormal : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("sigma");
    QTest::newRow("standard at 0") << 0.0 << 0.0 << 1.0;
    QTest::newRow("shifted and scaled") << 1.3 << -0.4 << 2.5;
    QTest::newRow("far tail") << 40.0 << 0.0 << 1.0;
    QTest::newRow("tiny sigma") << 1e-9 << 0.0 << 1e-8;
    QTest::newRow("huge sigma") << -3.0 << 7.0 << 1e8;
    QTest::newRow("negative x") << -1e6 << 2.0 << 3.0;
  }
  void logProbMatchesFormula() {
    QFETCH(double, x);
    QFETCH(double, mu);
    QFETCH(double, sigma);
    const double got = Normal(scalar(mu), scalar(sigma)).log_prob(scalar(x)).item<double>();
    const double expected = naive_normal_log_density(x, mu, sigma);
    QVERIFY2(std::abs(got - expected) <= 1e-12 * std::max(1.0, std::abs(expected)),
             qPrintable(QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("sigma");
    QTest::newRow("near mode") << 0.1 << 0.0 << 1.0;
    QTest::newRow("tail") << 5.0 << -1.0 << 0.7;
    QTest::newRow("wide") << 100.0 << 3.0 << 50.0;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(double, x);
    QFETCH(double, mu);
    QFETCH(double, sigma);
    // One vector holds (x, mu, sigma) so a single check covers every argument.
    const auto log_prob = [](const at::Tensor& p) {
      return Normal(p[1], p[2]).log_prob(p[0]);
    };
    const std::string error = vtest::compare_gradients(
        log_prob, at::tensor({x, mu, sigma}, at::kDouble));
    QVERIFY2(error.empty(), error.c_str());
  }

  void batchShapesBroadcast() {
    Normal normal(at::zeros({3, 1}, at::kDouble), at::ones({4}, at::kDouble));
    QCOMPARE(normal.batch_shape(), (variate::Shape{3, 4}));
    QVERIFY(normal.event_shape().empty());
    QCOMPARE(normal.log_prob(at::zeros({2, 3, 4}, at::kDouble)).sizes(),
             (c10::IntArrayRef{2, 3, 4}));
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(normal.sample({5}, generator).sizes(), (c10::IntArrayRef{5, 3, 4}));
  }

  void samplerMatchesMoments() {
    at::Generator generator = at::detail::createCPUGenerator(42);
    const Normal normal(scalar(1.5), scalar(0.3));
    const at::Tensor draws = normal.sample({100000}, generator);
    const std::string error = vtest::check_moments(draws, scalar(1.5), scalar(0.09));
    QVERIFY2(error.empty(), error.c_str());
  }

  void samplerPassesKolmogorovSmirnov() {
    at::Generator generator = at::detail::createCPUGenerator(7);
    const at::Tensor draws = Normal(scalar(-2.0), scalar(3.0)).sample({20000}, generator);
    const auto ks = vtest::ks_test(draws, [](double x) { return vtest::normal_cdf((x + 2) / 3); });
    QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("KS p-value %1").arg(ks.p_value)));
  }

  void samplingIsReproducible() {
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const Normal normal(scalar(0.0), scalar(1.0));
    QVERIFY(at::equal(normal.sample({10}, a), normal.sample({10}, b)));
  }

  void invalidParametersThrow_data() {
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero sigma") << 0.0 << 0.0 << QString("Normal: argument 'sigma' must be positive, got 0");
    QTest::newRow("negative sigma") << 0.0 << -2.0 << QString("Normal: argument 'sigma' must be positive, got -2");
    QTest::newRow("nan sigma") << 0.0 << std::nan("") << QString("Normal: argument 'sigma' must be positive, got nan");
    QTest::newRow("infinite mu") << std::numeric_limits<double>::infinity() << 1.0 << QString("Normal: argument 'mu' must be finite, got inf");
  }
  void invalidParametersThrow() {
    QFETCH(double, mu);
    QFETCH(double, sigma);
    QFETCH(QString, message);
    try {
      Normal(scalar(mu), scalar(sigma));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void invalidElementIsLocated() {
    try {
      Normal(scalar(0.0), at::tensor({1.0, 2.0, -1.0}, at::kDouble));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("Normal: argument 'sigma' must be positive, got -1 (at index [2])"));
    }
  }
};

QTEST_APPLESS_MAIN(TestNormal)
#include "tst_normal.moc"
