// InvGamma(alpha, beta) with beta a SCALE: density against the textbook formula,
// gradients, sampling, errors.

#include <cmath>
#include <limits>
#include <sstream>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/inv_gamma.h"

using variate::distributions::InvGamma;
namespace vtest = variate::testing;

namespace {

double naive_inv_gamma_log_density(double x, double alpha, double beta) {
  return alpha * std::log(beta) - std::lgamma(alpha) - (alpha + 1) * std::log(x) - beta / x;
}

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

constexpr double kInf = std::numeric_limits<double>::infinity();


}  // namespace

class TestInvGamma : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::newRow("moderate") << 1.3 << 2.0 << 3.0;
    QTest::newRow("near 0") << 1e-3 << 2.0 << 1.0;
    QTest::newRow("alpha < 1") << 0.7 << 0.3 << 2.0;
    QTest::newRow("large alpha") << 1.01 << 50.0 << 50.0;
    QTest::newRow("far tail") << 1e6 << 3.0 << 2.0;
    QTest::newRow("tiny scale") << 1e-8 << 3.0 << 1e-8;
    QTest::newRow("huge scale") << 1e8 << 2.0 << 1e8;
  }
  void logProbMatchesFormula() {
    QFETCH(double, x);
    QFETCH(double, alpha);
    QFETCH(double, beta);
    const double got = InvGamma(scalar(alpha), scalar(beta)).log_prob(scalar(x)).item<double>();
    const double expected = naive_inv_gamma_log_density(x, alpha, beta);
    QVERIFY2(std::abs(got - expected) <= 1e-12 * std::max(1.0, std::abs(expected)),
             qPrintable(QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
  }

  void logProbOutsideSupportIsMinusInfinity_data() {
    QTest::addColumn<double>("x");
    QTest::newRow("zero (density limit)") << 0.0;
    QTest::newRow("just below 0") << -1e-300;
    QTest::newRow("negative") << -2.0;
    QTest::newRow("minus infinity") << -kInf;
    QTest::newRow("plus infinity") << kInf;
    QTest::newRow("nan") << std::nan("");
  }
  void logProbOutsideSupportIsMinusInfinity() {
    QFETCH(double, x);
    QCOMPARE(InvGamma(scalar(3.0), scalar(1.5)).log_prob(scalar(x)).item<double>(), -kInf);
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::newRow("moderate") << 0.8 << 2.0 << 1.0;
    QTest::newRow("alpha < 1") << 0.05 << 0.4 << 0.3;
    QTest::newRow("tail") << 40.0 << 5.0 << 0.5;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(double, x);
    QFETCH(double, alpha);
    QFETCH(double, beta);
    // One vector holds (x, alpha, beta) so a single check covers every argument.
    const auto log_prob = [](const at::Tensor& p) { return InvGamma(p[1], p[2]).log_prob(p[0]); };
    const std::string error =
        vtest::compare_gradients(log_prob, at::tensor({x, alpha, beta}, at::kDouble));
    QVERIFY2(error.empty(), error.c_str());
  }

  void valuesOutsideSupportLeaveGradientsFinite() {
    // Masked entries must contribute nothing (not NaN) to the parameters' gradients.
    const at::Tensor values = at::tensor({-kInf, -1.0, 0.0, kInf, 0.5}, at::kDouble);
    const at::Tensor alpha = scalar(3.0).requires_grad_(true);
    const at::Tensor beta = scalar(1.7).requires_grad_(true);
    InvGamma(alpha, beta).log_prob(values).sum().backward();
    const at::Tensor alpha_alone = scalar(3.0).requires_grad_(true);
    const at::Tensor beta_alone = scalar(1.7).requires_grad_(true);
    InvGamma(alpha_alone, beta_alone).log_prob(scalar(0.5)).backward();
    QVERIFY(at::allclose(alpha.grad(), alpha_alone.grad()));
    QVERIFY(at::allclose(beta.grad(), beta_alone.grad()));
  }

  void batchShapesBroadcast() {
    const at::Tensor alpha = at::tensor({0.5, 2.0, 9.0}, at::kDouble).reshape({3, 1});
    const at::Tensor beta = at::tensor({0.5, 1.0, 2.0, 4.0}, at::kDouble);
    InvGamma inv_gamma(alpha, beta);
    QCOMPARE(inv_gamma.batch_shape(), (variate::Shape{3, 4}));
    QVERIFY(inv_gamma.event_shape().empty());
    const at::Tensor log_prob = inv_gamma.log_prob(at::full({2, 1, 1}, 0.8, at::kDouble));
    QCOMPARE(log_prob.sizes(), (c10::IntArrayRef{2, 3, 4}));
    // Each batch entry uses its own parameters.
    const double expected = naive_inv_gamma_log_density(0.8, 9.0, 4.0);
    QVERIFY(std::abs(log_prob[1][2][3].item<double>() - expected) < 1e-13);
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(inv_gamma.sample({5}, generator).sizes(), (c10::IntArrayRef{5, 3, 4}));
  }

  void samplerMatchesMoments() {
    // alpha = 10: moments up to the ninth exist, so the variance's standard error is sound.
    // beta is a scale: mean beta / (alpha - 1) (a rate would give 1 / (beta (alpha - 1))).
    at::Generator generator = at::detail::createCPUGenerator(42);
    const double alpha = 10.0;
    const double beta = 3.0;
    const at::Tensor draws = InvGamma(scalar(alpha), scalar(beta)).sample({100000}, generator);
    QVERIFY((draws > 0).all().item<bool>());
    const double mean = beta / (alpha - 1);
    const double variance = mean * mean / (alpha - 2);
    const std::string error = vtest::check_moments(draws, scalar(mean), scalar(variance));
    QVERIFY2(error.empty(), error.c_str());
  }

  void samplerPassesKolmogorovSmirnov_data() {
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::newRow("alpha > 1") << 3.0 << 2.0;
    QTest::newRow("alpha < 1") << 0.8 << 0.5;
  }
  void samplerPassesKolmogorovSmirnov() {
    // P(X <= x) = P(G >= beta / x) for G ~ Gamma(alpha, 1).
    QFETCH(double, alpha);
    QFETCH(double, beta);
    at::Generator generator = at::detail::createCPUGenerator(7);
    const at::Tensor draws = InvGamma(scalar(alpha), scalar(beta)).sample({20000}, generator);
    const auto ks = vtest::ks_test(
        draws, [&](double x) { return 1 - vtest::incomplete_gamma(alpha, beta / x); });
    QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("KS p-value %1").arg(ks.p_value)));
  }

  void samplesAreReparameterized() {
    // Each draw gets its own copy of the parameters, so the per-draw pathwise derivatives
    // average to d E[X] / d theta: E[X] = beta / (alpha - 1).
    const double alpha = 10.0;
    const double beta = 3.0;
    const int64_t n = 100000;
    const at::Tensor alphas = at::full({n}, alpha, at::kDouble).requires_grad_(true);
    const at::Tensor betas = at::full({n}, beta, at::kDouble).requires_grad_(true);
    at::Generator generator = at::detail::createCPUGenerator(11);
    InvGamma(alphas, betas).sample({}, generator).sum().backward();
    std::string error = vtest::check_mean_derivative(alphas.grad(), -beta / ((alpha - 1) * (alpha - 1)));
    QVERIFY2(error.empty(), ("alpha: " + error).c_str());
    error = vtest::check_mean_derivative(betas.grad(), 1 / (alpha - 1));
    QVERIFY2(error.empty(), ("beta: " + error).c_str());
  }

  void samplingIsReproducible() {
    const InvGamma inv_gamma(scalar(2.0), scalar(1.0));
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const at::Tensor first = inv_gamma.sample({10}, a);
    at::randn({7});  // the global generator must play no part
    QVERIFY(at::equal(first, inv_gamma.sample({10}, b)));
    at::Generator c = at::detail::createCPUGenerator(4);
    QVERIFY(!at::equal(first, inv_gamma.sample({10}, c)));
  }

  void float32StaysFloat32() {
    const InvGamma inv_gamma(at::tensor({2.0f}), at::tensor({1.5f}));
    const at::Tensor log_prob = inv_gamma.log_prob(at::tensor({0.3f}));
    QCOMPARE(log_prob.scalar_type(), at::kFloat);
    QVERIFY(std::abs(log_prob.item<double>() - naive_inv_gamma_log_density(0.3, 2, 1.5)) < 1e-5);
    at::Generator generator = at::detail::createCPUGenerator(5);
    QCOMPARE(inv_gamma.sample({3}, generator).scalar_type(), at::kFloat);
  }

  void factoryBuildsRandomVariable() {
    const variate::RandomVariable s = variate::InvGamma("s", 2.0, 0.5, {3});
    QCOMPARE(QString::fromStdString(s.name()), QString("s"));
    QCOMPARE(QString::fromStdString(s.distribution().name()), QString("InvGamma"));
    QCOMPARE(s.shape(), (variate::Shape{3}));
  }

  void invalidParametersThrow_data() {
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero alpha") << 0.0 << 1.0 << QString("InvGamma: argument 'alpha' must be positive, got 0");
    QTest::newRow("negative alpha") << -1.5 << 1.0 << QString("InvGamma: argument 'alpha' must be positive, got -1.5");
    QTest::newRow("nan alpha") << std::nan("") << 1.0 << QString("InvGamma: argument 'alpha' must be positive, got nan");
    QTest::newRow("zero beta") << 2.0 << 0.0 << QString("InvGamma: argument 'beta' must be positive, got 0");
    QTest::newRow("negative beta") << 2.0 << -2.0 << QString("InvGamma: argument 'beta' must be positive, got -2");
  }
  void invalidParametersThrow() {
    QFETCH(double, alpha);
    QFETCH(double, beta);
    QFETCH(QString, message);
    try {
      InvGamma(scalar(alpha), scalar(beta));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void invalidElementIsLocated() {
    try {
      InvGamma(at::tensor({1.0, 2.0, -1.0}, at::kDouble), scalar(2.0));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("InvGamma: argument 'alpha' must be positive, got -1 (at index [2])"));
    }
  }
};

QTEST_APPLESS_MAIN(TestInvGamma)
#include "tst_inv_gamma.moc"
