// Exponential(beta): density against the textbook formula, gradients, sampling, errors.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/exponential.h"

using variate::distributions::Exponential;
namespace vtest = variate::testing;

namespace {

double naive_exponential_log_density(double x, double beta) {
  return std::log(beta) - beta * x;
}

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

class TestExponential : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("beta");
    QTest::newRow("edge x = 0") << 0.0 << 2.5;
    QTest::newRow("edge x = 0, tiny rate") << 0.0 << 1e-8;
    QTest::newRow("moderate") << 1.3 << 0.4;
    QTest::newRow("far tail") << 1e3 << 1.0;
    QTest::newRow("tiny rate") << 3e7 << 1e-8;
    QTest::newRow("huge rate") << 1e-9 << 1e8;
  }
  void logProbMatchesFormula() {
    QFETCH(double, x);
    QFETCH(double, beta);
    const double got = Exponential(scalar(beta)).log_prob(scalar(x)).item<double>();
    const double expected = naive_exponential_log_density(x, beta);
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
    QCOMPARE(Exponential(scalar(1.5)).log_prob(scalar(x)).item<double>(), -kInf);
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("beta");
    QTest::newRow("near zero") << 0.1 << 1.0;
    QTest::newRow("tail") << 5.0 << 0.7;
    QTest::newRow("large rate") << 0.01 << 50.0;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(double, x);
    QFETCH(double, beta);
    // One vector holds (x, beta) so a single check covers every argument.
    const auto log_prob = [](const at::Tensor& p) { return Exponential(p[1]).log_prob(p[0]); };
    const std::string error = vtest::compare_gradients(log_prob, at::tensor({x, beta}, at::kDouble));
    QVERIFY2(error.empty(), error.c_str());
  }

  void valuesOutsideSupportLeaveGradientsFinite() {
    // Masked entries must contribute nothing (not NaN) to the parameter's gradient.
    const at::Tensor beta = scalar(1.7).requires_grad_(true);
    Exponential(beta).log_prob(at::tensor({-kInf, -1.0, kInf, 0.5}, at::kDouble)).sum().backward();
    const at::Tensor alone = scalar(1.7).requires_grad_(true);
    Exponential(alone).log_prob(scalar(0.5)).backward();
    QVERIFY2(at::allclose(beta.grad(), alone.grad()),
             qPrintable(QString("gradient %1, expected %2")
                            .arg(beta.grad().item<double>())
                            .arg(alone.grad().item<double>())));
  }

  void batchShapesBroadcast() {
    const at::Tensor beta = at::linspace(0.5, 6.0, 12, at::kDouble).reshape({3, 4});
    Exponential exponential(beta);
    QCOMPARE(exponential.batch_shape(), (variate::Shape{3, 4}));
    QVERIFY(exponential.event_shape().empty());
    const at::Tensor log_prob = exponential.log_prob(at::full({2, 1, 1}, 0.8, at::kDouble));
    QCOMPARE(log_prob.sizes(), (c10::IntArrayRef{2, 3, 4}));
    // Each batch entry uses its own parameter.
    QCOMPARE(log_prob[1][2][3].item<double>(), naive_exponential_log_density(0.8, 6.0));
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(exponential.sample({5}, generator).sizes(), (c10::IntArrayRef{5, 3, 4}));
  }

  void samplerMatchesMoments() {
    // beta is a rate: mean 1 / beta (a scale would give beta).
    at::Generator generator = at::detail::createCPUGenerator(42);
    const double beta = 2.5;
    const at::Tensor draws = Exponential(scalar(beta)).sample({100000}, generator);
    QVERIFY((draws > 0).all().item<bool>());
    const std::string error =
        vtest::check_moments(draws, scalar(1 / beta), scalar(1 / (beta * beta)));
    QVERIFY2(error.empty(), error.c_str());
  }

  void samplerPassesKolmogorovSmirnov() {
    at::Generator generator = at::detail::createCPUGenerator(7);
    const at::Tensor draws = Exponential(scalar(0.5)).sample({20000}, generator);
    const auto ks = vtest::ks_test(draws, [](double x) { return 1 - std::exp(-0.5 * x); });
    QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("KS p-value %1").arg(ks.p_value)));
  }

  void samplingIsReproducible() {
    const Exponential exponential(scalar(1.0));
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const at::Tensor first = exponential.sample({10}, a);
    at::randn({7});  // the global generator must play no part
    QVERIFY(at::equal(first, exponential.sample({10}, b)));
    at::Generator c = at::detail::createCPUGenerator(4);
    QVERIFY(!at::equal(first, exponential.sample({10}, c)));
  }

  void float32StaysFloat32() {
    const Exponential exponential(at::tensor({1.5f}));
    const at::Tensor log_prob = exponential.log_prob(at::tensor({0.3f}));
    QCOMPARE(log_prob.scalar_type(), at::kFloat);
    QVERIFY(std::abs(log_prob.item<double>() - naive_exponential_log_density(0.3, 1.5)) < 1e-5);
    at::Generator generator = at::detail::createCPUGenerator(5);
    const at::Tensor draws = exponential.sample({100000}, generator);
    QCOMPARE(draws.scalar_type(), at::kFloat);
    QVERIFY((draws > 0).all().item<bool>());
  }

  void factoryBuildsRandomVariable() {
    const variate::RandomVariable t = variate::Exponential("t", 2.5, {3});
    QCOMPARE(QString::fromStdString(t.name()), QString("t"));
    QCOMPARE(QString::fromStdString(t.distribution().name()), QString("Exponential"));
    QCOMPARE(t.shape(), (variate::Shape{3}));
  }

  void invalidParametersThrow_data() {
    QTest::addColumn<double>("beta");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero beta") << 0.0 << QString("Exponential: argument 'beta' must be positive, got 0");
    QTest::newRow("negative beta") << -2.0 << QString("Exponential: argument 'beta' must be positive, got -2");
    QTest::newRow("nan beta") << std::nan("") << QString("Exponential: argument 'beta' must be positive, got nan");
  }
  void invalidParametersThrow() {
    QFETCH(double, beta);
    QFETCH(QString, message);
    try {
      Exponential(scalar(beta));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void invalidElementIsLocated() {
    try {
      Exponential(at::tensor({1.0, 2.0, -1.0}, at::kDouble));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("Exponential: argument 'beta' must be positive, got -1 (at index [2])"));
    }
  }
};

QTEST_APPLESS_MAIN(TestExponential)
#include "tst_exponential.moc"
