// HalfStudentT(nu, sigma): density against the textbook formula, gradients, sampling,
// errors.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/half_student_t.h"

using variate::distributions::HalfStudentT;
namespace vtest = variate::testing;

namespace {

double naive_half_student_t_log_density(double x, double nu, double sigma) {
  const double z = x / sigma;
  return std::log(2.0) + std::lgamma((nu + 1) / 2) - std::lgamma(nu / 2) -
         0.5 * std::log(nu * M_PI) - std::log(sigma) - (nu + 1) / 2 * std::log(1 + z * z / nu);
}

// P(X <= x) = 1 - P(|T| > x / sigma) = 1 - I_{nu / (nu + z^2)}(nu / 2, 1 / 2).
double half_student_t_cdf(double x, double nu, double sigma) {
  const double z = x / sigma;
  return 1 - vtest::incomplete_beta(nu / 2, 0.5, nu / (nu + z * z));
}

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

class TestHalfStudentT : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("nu");
    QTest::addColumn<double>("sigma");
    QTest::newRow("edge x = 0") << 0.0 << 3.0 << 1.0;
    QTest::newRow("edge x = 0, wide") << 0.0 << 1.5 << 250.0;
    QTest::newRow("near mode") << 0.7 << 4.5 << 1.3;
    QTest::newRow("far tail") << 1e4 << 2.0 << 1.0;
    QTest::newRow("heavy tail, nu < 1") << 30.0 << 0.5 << 2.0;
    QTest::newRow("tiny sigma") << 3e-8 << 5.0 << 1e-8;
    QTest::newRow("huge sigma") << 3.0 << 7.0 << 1e8;
  }
  void logProbMatchesFormula() {
    QFETCH(double, x);
    QFETCH(double, nu);
    QFETCH(double, sigma);
    const double got = HalfStudentT(scalar(nu), scalar(sigma)).log_prob(scalar(x)).item<double>();
    const double expected = naive_half_student_t_log_density(x, nu, sigma);
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
    QCOMPARE(HalfStudentT(scalar(3.0), scalar(1.5)).log_prob(scalar(x)).item<double>(), -kInf);
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("nu");
    QTest::addColumn<double>("sigma");
    QTest::newRow("near mode") << 0.1 << 3.0 << 1.0;
    QTest::newRow("tail") << 5.0 << 1.5 << 0.7;
    QTest::newRow("wide") << 100.0 << 30.0 << 50.0;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(double, x);
    QFETCH(double, nu);
    QFETCH(double, sigma);
    // One vector holds (x, nu, sigma) so a single check covers every argument.
    const auto log_prob = [](const at::Tensor& p) {
      return HalfStudentT(p[1], p[2]).log_prob(p[0]);
    };
    const std::string error =
        vtest::compare_gradients(log_prob, at::tensor({x, nu, sigma}, at::kDouble));
    QVERIFY2(error.empty(), error.c_str());
  }

  void valuesOutsideSupportLeaveGradientsFinite() {
    // Masked entries must contribute nothing (not NaN) to the parameters' gradients.
    const at::Tensor values = at::tensor({-kInf, -1.0, kInf, 0.5}, at::kDouble);
    const at::Tensor nu = scalar(3.0).requires_grad_(true);
    const at::Tensor sigma = scalar(1.7).requires_grad_(true);
    HalfStudentT(nu, sigma).log_prob(values).sum().backward();
    const at::Tensor nu_alone = scalar(3.0).requires_grad_(true);
    const at::Tensor sigma_alone = scalar(1.7).requires_grad_(true);
    HalfStudentT(nu_alone, sigma_alone).log_prob(scalar(0.5)).backward();
    QVERIFY(at::allclose(nu.grad(), nu_alone.grad()));
    QVERIFY(at::allclose(sigma.grad(), sigma_alone.grad()));
  }

  void batchShapesBroadcast() {
    const at::Tensor nu = at::tensor({1.0, 4.0, 9.0}, at::kDouble).reshape({3, 1});
    const at::Tensor sigma = at::tensor({0.5, 1.0, 2.0, 4.0}, at::kDouble);
    HalfStudentT half_student_t(nu, sigma);
    QCOMPARE(half_student_t.batch_shape(), (variate::Shape{3, 4}));
    QVERIFY(half_student_t.event_shape().empty());
    const at::Tensor log_prob = half_student_t.log_prob(at::full({2, 1, 1}, 0.8, at::kDouble));
    QCOMPARE(log_prob.sizes(), (c10::IntArrayRef{2, 3, 4}));
    // Each batch entry uses its own parameters.
    QCOMPARE(log_prob[1][2][3].item<double>(), naive_half_student_t_log_density(0.8, 9.0, 4.0));
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(half_student_t.sample({5}, generator).sizes(), (c10::IntArrayRef{5, 3, 4}));
  }

  void samplerMatchesMoments() {
    // nu = 10: the fourth moment (for the variance's standard error) exists.
    at::Generator generator = at::detail::createCPUGenerator(42);
    const double nu = 10.0;
    const double sigma = 2.0;
    const at::Tensor draws = HalfStudentT(scalar(nu), scalar(sigma)).sample({100000}, generator);
    QVERIFY((draws > 0).all().item<bool>());
    // E|T| = 2 sqrt(nu / pi) Gamma((nu + 1) / 2) / (Gamma(nu / 2) (nu - 1)); E T^2 = nu / (nu - 2).
    const double mean = sigma * 2 * std::sqrt(nu / M_PI) *
                        std::exp(std::lgamma((nu + 1) / 2) - std::lgamma(nu / 2)) / (nu - 1);
    const double variance = sigma * sigma * nu / (nu - 2) - mean * mean;
    const std::string error = vtest::check_moments(draws, scalar(mean), scalar(variance));
    QVERIFY2(error.empty(), error.c_str());
  }

  void samplerPassesKolmogorovSmirnov_data() {
    QTest::addColumn<double>("nu");
    QTest::addColumn<double>("sigma");
    QTest::newRow("nu = 3") << 3.0 << 2.0;
    QTest::newRow("nu < 1") << 0.7 << 0.5;
  }
  void samplerPassesKolmogorovSmirnov() {
    QFETCH(double, nu);
    QFETCH(double, sigma);
    at::Generator generator = at::detail::createCPUGenerator(7);
    const at::Tensor draws = HalfStudentT(scalar(nu), scalar(sigma)).sample({20000}, generator);
    const auto ks =
        vtest::ks_test(draws, [&](double x) { return half_student_t_cdf(x, nu, sigma); });
    QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("KS p-value %1").arg(ks.p_value)));
  }

  void samplingIsReproducible() {
    const HalfStudentT half_student_t(scalar(3.0), scalar(1.0));
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const at::Tensor first = half_student_t.sample({10}, a);
    at::randn({7});  // the global generator must play no part
    QVERIFY(at::equal(first, half_student_t.sample({10}, b)));
    at::Generator c = at::detail::createCPUGenerator(4);
    QVERIFY(!at::equal(first, half_student_t.sample({10}, c)));
  }

  void float32StaysFloat32() {
    const HalfStudentT half_student_t(at::tensor({3.0f}), at::tensor({1.5f}));
    const at::Tensor log_prob = half_student_t.log_prob(at::tensor({0.3f}));
    QCOMPARE(log_prob.scalar_type(), at::kFloat);
    QVERIFY(std::abs(log_prob.item<double>() - naive_half_student_t_log_density(0.3, 3, 1.5)) <
            1e-5);
    at::Generator generator = at::detail::createCPUGenerator(5);
    QCOMPARE(half_student_t.sample({3}, generator).scalar_type(), at::kFloat);
  }

  void factoryBuildsRandomVariable() {
    const variate::RandomVariable tau = variate::HalfStudentT("tau", 3.0, 2.5, {3});
    QCOMPARE(QString::fromStdString(tau.name()), QString("tau"));
    QCOMPARE(QString::fromStdString(tau.distribution().name()), QString("HalfStudentT"));
    QCOMPARE(tau.shape(), (variate::Shape{3}));
  }

  void invalidParametersThrow_data() {
    QTest::addColumn<double>("nu");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero nu") << 0.0 << 1.0 << QString("HalfStudentT: argument 'nu' must be positive, got 0");
    QTest::newRow("nan nu") << std::nan("") << 1.0 << QString("HalfStudentT: argument 'nu' must be positive, got nan");
    QTest::newRow("infinite nu") << kInf << 1.0 << QString("HalfStudentT: argument 'nu' must be finite, got inf");
    QTest::newRow("zero sigma") << 3.0 << 0.0 << QString("HalfStudentT: argument 'sigma' must be positive, got 0");
    QTest::newRow("negative sigma") << 3.0 << -2.0 << QString("HalfStudentT: argument 'sigma' must be positive, got -2");
  }
  void invalidParametersThrow() {
    QFETCH(double, nu);
    QFETCH(double, sigma);
    QFETCH(QString, message);
    try {
      HalfStudentT(scalar(nu), scalar(sigma));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void invalidElementIsLocated() {
    try {
      HalfStudentT(scalar(3.0), at::tensor({1.0, 2.0, -1.0}, at::kDouble));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("HalfStudentT: argument 'sigma' must be positive, got -1 (at index [2])"));
    }
  }
};

QTEST_APPLESS_MAIN(TestHalfStudentT)
#include "tst_half_student_t.moc"
