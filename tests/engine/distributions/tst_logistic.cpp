// Logistic(mu, sigma): density against the textbook formula, gradients, sampling, errors.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/logistic.h"

using variate::distributions::Logistic;
namespace vtest = variate::testing;

namespace {

// The density as printed, exp(-z) / (sigma (1 + exp(-z))^2), then its log.
double naive_logistic_log_density(double x, double mu, double sigma) {
  const double z = (x - mu) / sigma;
  const double e = std::exp(-z);
  return std::log(e / (sigma * (1 + e) * (1 + e)));
}

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

class TestLogistic : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("sigma");
    QTest::newRow("at the location") << 0.5 << 0.5 << 1.0;
    QTest::newRow("shifted and scaled") << 1.3 << -0.4 << 2.5;
    QTest::newRow("right tail") << 31.0 << 1.0 << 1.0;
    QTest::newRow("far right tail") << 600.0 << 0.0 << 1.0;
    QTest::newRow("far left tail") << -300.0 << 0.0 << 1.0;
    QTest::newRow("tiny sigma") << 3e-8 << 0.0 << 1e-8;
    QTest::newRow("huge sigma") << -3.0 << 7.0 << 1e8;
  }
  void logProbMatchesFormula() {
    QFETCH(double, x);
    QFETCH(double, mu);
    QFETCH(double, sigma);
    const double got = Logistic(scalar(mu), scalar(sigma)).log_prob(scalar(x)).item<double>();
    const double expected = naive_logistic_log_density(x, mu, sigma);
    QVERIFY2(std::abs(got - expected) <= 1e-12 * std::max(1.0, std::abs(expected)),
             qPrintable(QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
  }

  void logProbStaysFiniteWhereTheNaiveFormulaOverflows() {
    // exp(-z) overflows for z < -710; the density is still exp(z) / sigma there.
    const double got = Logistic(scalar(0.0), scalar(1.0)).log_prob(scalar(-1000.0)).item<double>();
    QCOMPARE(got, -1000.0);
    QCOMPARE(Logistic(scalar(0.0), scalar(1.0)).log_prob(scalar(-kInf)).item<double>(), -kInf);
    QCOMPARE(Logistic(scalar(0.0), scalar(1.0)).log_prob(scalar(kInf)).item<double>(), -kInf);
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("sigma");
    QTest::newRow("near mode") << 0.1 << 0.0 << 1.0;
    QTest::newRow("left") << -5.0 << -1.0 << 0.7;
    QTest::newRow("wide") << 100.0 << 3.0 << 50.0;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(double, x);
    QFETCH(double, mu);
    QFETCH(double, sigma);
    // One vector holds (x, mu, sigma) so a single check covers every argument.
    const auto log_prob = [](const at::Tensor& p) { return Logistic(p[1], p[2]).log_prob(p[0]); };
    const std::string error =
        vtest::compare_gradients(log_prob, at::tensor({x, mu, sigma}, at::kDouble));
    QVERIFY2(error.empty(), error.c_str());
  }

  void gradientAtTheLocationIsZeroInX() {
    // The density is symmetric, so d/dx vanishes at x = mu (the |z| form must not break it).
    const at::Tensor x = scalar(0.5).requires_grad_(true);
    Logistic(scalar(0.5), scalar(2.0)).log_prob(x).backward();
    QCOMPARE(x.grad().item<double>(), 0.0);
  }

  void batchShapesBroadcast() {
    const at::Tensor mu = at::tensor({-1.0, 0.0, 2.0}, at::kDouble).reshape({3, 1});
    const at::Tensor sigma = at::tensor({0.5, 1.0, 2.0, 4.0}, at::kDouble);
    Logistic logistic(mu, sigma);
    QCOMPARE(logistic.batch_shape(), (variate::Shape{3, 4}));
    QVERIFY(logistic.event_shape().empty());
    const at::Tensor log_prob = logistic.log_prob(at::full({2, 1, 1}, 0.8, at::kDouble));
    QCOMPARE(log_prob.sizes(), (c10::IntArrayRef{2, 3, 4}));
    // Each batch entry uses its own parameters.
    const double expected = naive_logistic_log_density(0.8, 2.0, 4.0);
    QVERIFY(std::abs(log_prob[1][2][3].item<double>() - expected) < 1e-14);
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(logistic.sample({5}, generator).sizes(), (c10::IntArrayRef{5, 3, 4}));
  }

  void samplerMatchesMoments() {
    at::Generator generator = at::detail::createCPUGenerator(42);
    const double sigma = 0.8;
    const at::Tensor draws = Logistic(scalar(1.5), scalar(sigma)).sample({100000}, generator);
    const double variance = sigma * sigma * M_PI * M_PI / 3;
    const std::string error = vtest::check_moments(draws, scalar(1.5), scalar(variance));
    QVERIFY2(error.empty(), error.c_str());
  }

  void samplerPassesKolmogorovSmirnov() {
    at::Generator generator = at::detail::createCPUGenerator(7);
    const at::Tensor draws = Logistic(scalar(-2.0), scalar(3.0)).sample({20000}, generator);
    const auto ks =
        vtest::ks_test(draws, [](double x) { return 1 / (1 + std::exp(-(x + 2) / 3)); });
    QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("KS p-value %1").arg(ks.p_value)));
  }

  void samplingIsReproducible() {
    const Logistic logistic(scalar(0.0), scalar(1.0));
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const at::Tensor first = logistic.sample({10}, a);
    at::randn({7});  // the global generator must play no part
    QVERIFY(at::equal(first, logistic.sample({10}, b)));
    at::Generator c = at::detail::createCPUGenerator(4);
    QVERIFY(!at::equal(first, logistic.sample({10}, c)));
  }

  void float32StaysFloat32() {
    const Logistic logistic(at::tensor({0.2f}), at::tensor({1.5f}));
    const at::Tensor log_prob = logistic.log_prob(at::tensor({0.3f}));
    QCOMPARE(log_prob.scalar_type(), at::kFloat);
    QVERIFY(std::abs(log_prob.item<double>() - naive_logistic_log_density(0.3, 0.2, 1.5)) < 1e-5);
    at::Generator generator = at::detail::createCPUGenerator(5);
    const at::Tensor draws = logistic.sample({100000}, generator);
    QCOMPARE(draws.scalar_type(), at::kFloat);
    QVERIFY(at::isfinite(draws).all().item<bool>());
  }

  void factoryBuildsRandomVariable() {
    const variate::RandomVariable x = variate::Logistic("x", 0.0, 2.5, {3});
    QCOMPARE(QString::fromStdString(x.name()), QString("x"));
    QCOMPARE(QString::fromStdString(x.distribution().name()), QString("Logistic"));
    QCOMPARE(x.shape(), (variate::Shape{3}));
  }

  void invalidParametersThrow_data() {
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero sigma") << 0.0 << 0.0 << QString("Logistic: argument 'sigma' must be positive, got 0");
    QTest::newRow("negative sigma") << 0.0 << -2.0 << QString("Logistic: argument 'sigma' must be positive, got -2");
    QTest::newRow("nan sigma") << 0.0 << std::nan("") << QString("Logistic: argument 'sigma' must be positive, got nan");
    QTest::newRow("infinite mu") << -kInf << 1.0 << QString("Logistic: argument 'mu' must be finite, got -inf");
  }
  void invalidParametersThrow() {
    QFETCH(double, mu);
    QFETCH(double, sigma);
    QFETCH(QString, message);
    try {
      Logistic(scalar(mu), scalar(sigma));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void invalidElementIsLocated() {
    try {
      Logistic(scalar(0.0), at::tensor({1.0, 2.0, -1.0}, at::kDouble));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("Logistic: argument 'sigma' must be positive, got -1 (at index [2])"));
    }
  }
};

QTEST_APPLESS_MAIN(TestLogistic)
#include "tst_logistic.moc"
