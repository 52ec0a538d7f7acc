// Beta(alpha, beta): density against the textbook formula, gradients, the gamma-ratio
// sampler (moments, KS, pathwise gradient), errors.

#include <algorithm>
#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/beta.h"

using variate::distributions::Beta;
namespace vtest = variate::testing;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

double naive_beta_log_density(double x, double a, double b) {
  const double log_beta_function = std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b);
  return (a - 1) * std::log(x) + (b - 1) * std::log(1 - x) - log_beta_function;
}

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

bool near(double got, double expected, double tolerance) {
  if (std::isinf(got) || std::isinf(expected)) return got == expected;
  return std::abs(got - expected) <= tolerance * std::max(1.0, std::abs(expected));
}

QString mismatch(double got, double expected) {
  return QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17);
}

}  // namespace

class TestBeta : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::newRow("uniform") << 0.3 << 1.0 << 1.0;
    QTest::newRow("skewed left") << 0.2 << 2.0 << 5.0;
    QTest::newRow("skewed right") << 0.2 << 5.0 << 2.0;
    QTest::newRow("U-shaped near 0") << 1e-10 << 0.5 << 0.5;
    QTest::newRow("near 1") << 0.999999 << 3.0 << 0.7;
    QTest::newRow("concentrated") << 0.7 << 50.0 << 20.0;
    QTest::newRow("small shapes") << 0.5 << 0.1 << 0.2;
    QTest::newRow("large shapes tail") << 0.01 << 300.0 << 200.0;
  }
  void logProbMatchesFormula() {
    QFETCH(double, x);
    QFETCH(double, alpha);
    QFETCH(double, beta);
    const double got = Beta(scalar(alpha), scalar(beta)).log_prob(scalar(x)).item<double>();
    const double expected = naive_beta_log_density(x, alpha, beta);
    QVERIFY2(near(got, expected, 1e-11), qPrintable(mismatch(got, expected)));
  }

  // Densities worked out by hand: a shared slip in the formula above cannot hide here.
  void logProbMatchesKnownValues() {
    // Beta(2, 3) density is 12 x (1 - x)^2; Beta(3, 1) is 3 x^2.
    QVERIFY(near(Beta(scalar(2), scalar(3)).log_prob(scalar(0.5)).item<double>(),
                 std::log(1.5), 1e-14));
    QVERIFY(near(Beta(scalar(3), scalar(1)).log_prob(scalar(0.5)).item<double>(),
                 std::log(0.75), 1e-14));
    QVERIFY(near(Beta(scalar(1), scalar(1)).log_prob(scalar(0.9)).item<double>(), 0.0, 1e-14));
  }

  void outsideSupportIsMinusInfinity_data() {
    QTest::addColumn<double>("x");
    QTest::newRow("zero") << 0.0;
    QTest::newRow("one") << 1.0;
    QTest::newRow("negative") << -0.25;
    QTest::newRow("above one") << 1.5;
    QTest::newRow("infinity") << kInf;
    QTest::newRow("nan") << std::nan("");
  }
  void outsideSupportIsMinusInfinity() {
    QFETCH(double, x);
    // The gradient with respect to the parameters must be 0, not NaN, outside.
    const at::Tensor shapes = at::tensor({2.0, 3.0}, at::kDouble).requires_grad_(true);
    const at::Tensor lp = Beta(shapes[0], shapes[1]).log_prob(scalar(x));
    QCOMPARE(lp.item<double>(), -kInf);
    lp.backward();
    QVERIFY(at::equal(shapes.grad(), at::zeros({2}, at::kDouble)));
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::newRow("interior") << 0.3 << 2.0 << 5.0;
    QTest::newRow("small shapes") << 0.8 << 0.4 << 0.6;
    QTest::newRow("large shapes") << 0.55 << 40.0 << 30.0;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(double, x);
    QFETCH(double, alpha);
    QFETCH(double, beta);
    const auto log_prob = [](const at::Tensor& p) { return Beta(p[1], p[2]).log_prob(p[0]); };
    const std::string error =
        vtest::compare_gradients(log_prob, at::tensor({x, alpha, beta}, at::kDouble));
    QVERIFY2(error.empty(), error.c_str());
  }

  void batchShapesBroadcast() {
    Beta beta(at::full({3, 1}, 2.0, at::kDouble), at::full({4}, 3.0, at::kDouble));
    QCOMPARE(beta.batch_shape(), (variate::Shape{3, 4}));
    QVERIFY(beta.event_shape().empty());
    QCOMPARE(beta.log_prob(at::full({2, 3, 4}, 0.5, at::kDouble)).sizes(),
             (c10::IntArrayRef{2, 3, 4}));
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(beta.sample({5}, generator).sizes(), (c10::IntArrayRef{5, 3, 4}));
    QCOMPARE(beta.support().to_string(), std::string("interval(0, 1)"));
  }

  void float32StaysFloat32() {
    Beta beta(at::full({2}, 2.0, at::kFloat), at::full({2}, 3.0, at::kFloat));
    at::Generator generator = at::detail::createCPUGenerator(2);
    QCOMPARE(beta.sample({3}, generator).scalar_type(), at::kFloat);
    QCOMPARE(beta.log_prob(at::full({2}, 0.5, at::kFloat)).scalar_type(), at::kFloat);
  }

  void samplerMatchesMoments_data() {
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::newRow("skewed") << 2.0 << 5.0;
    QTest::newRow("U-shaped") << 0.3 << 0.6;
    QTest::newRow("concentrated") << 40.0 << 10.0;
  }
  void samplerMatchesMoments() {
    QFETCH(double, alpha);
    QFETCH(double, beta);
    at::Generator generator = at::detail::createCPUGenerator(42);
    const at::Tensor draws = Beta(scalar(alpha), scalar(beta)).sample({100000}, generator);
    const double total = alpha + beta;
    const double mean = alpha / total;
    const double variance = alpha * beta / (total * total * (total + 1));
    const std::string error = vtest::check_moments(draws, scalar(mean), scalar(variance));
    QVERIFY2(error.empty(), error.c_str());
    QVERIFY(((draws > 0) & (draws < 1)).all().item<bool>());
  }

  void samplerPassesKolmogorovSmirnov_data() {
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::newRow("skewed") << 2.0 << 5.0;
    QTest::newRow("U-shaped") << 0.5 << 0.8;
  }
  void samplerPassesKolmogorovSmirnov() {
    QFETCH(double, alpha);
    QFETCH(double, beta);
    at::Generator generator = at::detail::createCPUGenerator(7);
    const at::Tensor draws = Beta(scalar(alpha), scalar(beta)).sample({20000}, generator);
    const auto ks = vtest::ks_test(
        draws, [&](double x) { return vtest::incomplete_beta(alpha, beta, x); });
    QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("KS p-value %1").arg(ks.p_value)));
  }

  // Draws are differentiable in the shapes: the pathwise gradient of the sample mean
  // estimates d/dalpha of alpha / (alpha + beta) = beta / (alpha + beta)^2.
  void samplerIsReparameterized() {
    const at::Tensor alpha = scalar(2.0).requires_grad_(true);
    const at::Tensor beta = scalar(3.0).requires_grad_(true);
    at::Generator generator = at::detail::createCPUGenerator(11);
    Beta(alpha, beta).sample({100000}, generator).mean().backward();
    QVERIFY(alpha.grad().defined() && beta.grad().defined());
    const double expected_alpha = 3.0 / 25.0;
    const double expected_beta = -2.0 / 25.0;
    QVERIFY2(std::abs(alpha.grad().item<double>() - expected_alpha) < 0.05 * expected_alpha,
             qPrintable(mismatch(alpha.grad().item<double>(), expected_alpha)));
    QVERIFY2(std::abs(beta.grad().item<double>() - expected_beta) < 0.05 * -expected_beta,
             qPrintable(mismatch(beta.grad().item<double>(), expected_beta)));
  }

  // Tiny shapes make both gammas underflow; draws must stay finite and inside (0, 1).
  void tinyShapesGiveDrawsInsideSupport() {
    at::Generator generator = at::detail::createCPUGenerator(5);
    const Beta beta(scalar(1e-3), scalar(2e-3));
    const at::Tensor draws = beta.sample({10000}, generator);
    QVERIFY(((draws > 0) & (draws < 1)).all().item<bool>());
    QVERIFY(at::isfinite(beta.log_prob(draws)).all().item<bool>());
  }

  void samplingIsReproducible() {
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const Beta beta(scalar(2.0), scalar(0.5));
    QVERIFY(at::equal(beta.sample({10}, a), beta.sample({10}, b)));
  }

  void invalidParametersThrow_data() {
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero alpha") << 0.0 << 1.0 << QString("Beta: argument 'alpha' must be positive, got 0");
    QTest::newRow("negative alpha") << -2.0 << 1.0 << QString("Beta: argument 'alpha' must be positive, got -2");
    QTest::newRow("infinite alpha") << kInf << 1.0 << QString("Beta: argument 'alpha' must be finite, got inf");
    QTest::newRow("zero beta") << 1.0 << 0.0 << QString("Beta: argument 'beta' must be positive, got 0");
    QTest::newRow("nan beta") << 1.0 << std::nan("") << QString("Beta: argument 'beta' must be positive, got nan");
  }
  void invalidParametersThrow() {
    QFETCH(double, alpha);
    QFETCH(double, beta);
    QFETCH(QString, message);
    try {
      Beta(scalar(alpha), scalar(beta));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void factoryBuildsRandomVariable() {
    const auto x = variate::Beta("p", 2.0, 3.0, {4});
    QCOMPARE(x.name(), std::string("p"));
    QCOMPARE(x.distribution().name(), std::string("Beta"));
    QCOMPARE(x.shape(), (variate::Shape{4}));
  }
};

QTEST_APPLESS_MAIN(TestBeta)
#include "tst_beta.moc"
