// Cauchy(mu, sigma): density against the textbook formula, gradients, sampling, errors.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/cauchy.h"

using variate::distributions::Cauchy;
namespace vtest = variate::testing;

namespace {

double naive_cauchy_log_density(double x, double mu, double sigma) {
  const double z = (x - mu) / sigma;
  return -std::log(M_PI) - std::log(sigma) - std::log(1 + z * z);
}

double cauchy_quantile(double p, double mu, double sigma) {
  return mu + sigma * std::tan(M_PI * (p - 0.5));
}

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

class TestCauchy : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("sigma");
    QTest::newRow("standard at 0") << 0.0 << 0.0 << 1.0;
    QTest::newRow("shifted and scaled") << 1.3 << -0.4 << 2.5;
    QTest::newRow("far tail") << 1e10 << 0.0 << 1.0;
    QTest::newRow("tiny sigma") << 3e-8 << 0.0 << 1e-8;
    QTest::newRow("huge sigma") << -3.0 << 7.0 << 1e8;
    QTest::newRow("far negative") << -1e6 << 2.0 << 3.0;
  }
  void logProbMatchesFormula() {
    QFETCH(double, x);
    QFETCH(double, mu);
    QFETCH(double, sigma);
    const double got = Cauchy(scalar(mu), scalar(sigma)).log_prob(scalar(x)).item<double>();
    const double expected = naive_cauchy_log_density(x, mu, sigma);
    QVERIFY2(std::abs(got - expected) <= 1e-12 * std::max(1.0, std::abs(expected)),
             qPrintable(QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
  }

  void logProbAtInfinityIsMinusInfinity() {
    const Cauchy cauchy(scalar(0.0), scalar(1.0));
    QCOMPARE(cauchy.log_prob(scalar(kInf)).item<double>(), -kInf);
    QCOMPARE(cauchy.log_prob(scalar(-kInf)).item<double>(), -kInf);
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
    const auto log_prob = [](const at::Tensor& p) { return Cauchy(p[1], p[2]).log_prob(p[0]); };
    const std::string error =
        vtest::compare_gradients(log_prob, at::tensor({x, mu, sigma}, at::kDouble));
    QVERIFY2(error.empty(), error.c_str());
  }

  void batchShapesBroadcast() {
    const at::Tensor mu = at::tensor({-1.0, 0.0, 2.0}, at::kDouble).reshape({3, 1});
    const at::Tensor sigma = at::tensor({0.5, 1.0, 2.0, 4.0}, at::kDouble);
    Cauchy cauchy(mu, sigma);
    QCOMPARE(cauchy.batch_shape(), (variate::Shape{3, 4}));
    QVERIFY(cauchy.event_shape().empty());
    const at::Tensor log_prob = cauchy.log_prob(at::full({2, 1, 1}, 0.8, at::kDouble));
    QCOMPARE(log_prob.sizes(), (c10::IntArrayRef{2, 3, 4}));
    // Each batch entry uses its own parameters.
    QCOMPARE(log_prob[1][2][3].item<double>(), naive_cauchy_log_density(0.8, 2.0, 4.0));
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(cauchy.sample({5}, generator).sizes(), (c10::IntArrayRef{5, 3, 4}));
  }

  void samplerMatchesQuartiles_data() {
    QTest::addColumn<double>("p");
    QTest::newRow("lower quartile") << 0.25;
    QTest::newRow("median") << 0.5;
    QTest::newRow("upper quartile") << 0.75;
  }
  void samplerMatchesQuartiles() {
    // The Cauchy has no mean or variance, so the moment check does not apply. Instead
    // the fraction of draws below the true p-quantile is Binomial(n, p) / n, whose
    // standard error is sqrt(p (1 - p) / n); it must lie within 5 of them of p.
    QFETCH(double, p);
    const double mu = 1.5;
    const double sigma = 0.3;
    at::Generator generator = at::detail::createCPUGenerator(42);
    const at::Tensor draws = Cauchy(scalar(mu), scalar(sigma)).sample({100000}, generator);
    const double n = static_cast<double>(draws.numel());
    const double fraction =
        (draws <= cauchy_quantile(p, mu, sigma)).to(at::kDouble).mean().item<double>();
    const double standard_error = std::sqrt(p * (1 - p) / n);
    QVERIFY2(std::abs(fraction - p) <= 5 * standard_error,
             qPrintable(QString("fraction below the %1-quantile is %2").arg(p).arg(fraction)));
  }

  void samplerPassesKolmogorovSmirnov() {
    at::Generator generator = at::detail::createCPUGenerator(7);
    const at::Tensor draws = Cauchy(scalar(-2.0), scalar(3.0)).sample({20000}, generator);
    const auto ks =
        vtest::ks_test(draws, [](double x) { return 0.5 + std::atan((x + 2) / 3) / M_PI; });
    QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("KS p-value %1").arg(ks.p_value)));
  }

  void samplingIsReproducible() {
    const Cauchy cauchy(scalar(0.0), scalar(1.0));
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const at::Tensor first = cauchy.sample({10}, a);
    at::randn({7});  // the global generator must play no part
    QVERIFY(at::equal(first, cauchy.sample({10}, b)));
    at::Generator c = at::detail::createCPUGenerator(4);
    QVERIFY(!at::equal(first, cauchy.sample({10}, c)));
  }

  void float32StaysFloat32() {
    const Cauchy cauchy(at::tensor({0.2f}), at::tensor({1.5f}));
    const at::Tensor log_prob = cauchy.log_prob(at::tensor({0.3f}));
    QCOMPARE(log_prob.scalar_type(), at::kFloat);
    QVERIFY(std::abs(log_prob.item<double>() - naive_cauchy_log_density(0.3, 0.2, 1.5)) < 1e-5);
    at::Generator generator = at::detail::createCPUGenerator(5);
    QCOMPARE(cauchy.sample({3}, generator).scalar_type(), at::kFloat);
  }

  void factoryBuildsRandomVariable() {
    const variate::RandomVariable x = variate::Cauchy("x", 0.0, 2.5, {3});
    QCOMPARE(QString::fromStdString(x.name()), QString("x"));
    QCOMPARE(QString::fromStdString(x.distribution().name()), QString("Cauchy"));
    QCOMPARE(x.shape(), (variate::Shape{3}));
  }

  void invalidParametersThrow_data() {
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero sigma") << 0.0 << 0.0 << QString("Cauchy: argument 'sigma' must be positive, got 0");
    QTest::newRow("negative sigma") << 0.0 << -2.0 << QString("Cauchy: argument 'sigma' must be positive, got -2");
    QTest::newRow("nan sigma") << 0.0 << std::nan("") << QString("Cauchy: argument 'sigma' must be positive, got nan");
    QTest::newRow("infinite mu") << kInf << 1.0 << QString("Cauchy: argument 'mu' must be finite, got inf");
    QTest::newRow("nan mu") << std::nan("") << 1.0 << QString("Cauchy: argument 'mu' must be finite, got nan");
  }
  void invalidParametersThrow() {
    QFETCH(double, mu);
    QFETCH(double, sigma);
    QFETCH(QString, message);
    try {
      Cauchy(scalar(mu), scalar(sigma));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void invalidElementIsLocated() {
    try {
      Cauchy(scalar(0.0), at::tensor({1.0, 2.0, -1.0}, at::kDouble));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("Cauchy: argument 'sigma' must be positive, got -1 (at index [2])"));
    }
  }
};

QTEST_APPLESS_MAIN(TestCauchy)
#include "tst_cauchy.moc"
