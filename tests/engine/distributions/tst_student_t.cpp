// StudentT(nu, mu, sigma): density against the textbook formula, gradients, sampling,
// errors.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/student_t.h"

using variate::distributions::StudentT;
namespace vtest = variate::testing;

namespace {

double naive_student_t_log_density(double x, double nu, double mu, double sigma) {
  const double z = (x - mu) / sigma;
  return std::lgamma((nu + 1) / 2) - std::lgamma(nu / 2) - 0.5 * std::log(nu * M_PI) -
         std::log(sigma) - (nu + 1) / 2 * std::log(1 + z * z / nu);
}

// P(T <= t) through the incomplete beta: P(|T| > |t|) = I_{nu / (nu + t^2)}(nu / 2, 1 / 2).
double student_t_cdf(double x, double nu, double mu, double sigma) {
  const double t = (x - mu) / sigma;
  const double tail = 0.5 * vtest::incomplete_beta(nu / 2, 0.5, nu / (nu + t * t));
  return t > 0 ? 1 - tail : tail;
}

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

class TestStudentT : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("nu");
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("sigma");
    QTest::newRow("standard at 0") << 0.0 << 3.0 << 0.0 << 1.0;
    QTest::newRow("shifted and scaled") << 1.3 << 4.5 << -0.4 << 2.5;
    QTest::newRow("far tail") << 1e4 << 2.0 << 0.0 << 1.0;
    QTest::newRow("heavy tail, nu < 1") << -30.0 << 0.5 << 1.0 << 2.0;
    QTest::newRow("large nu") << 0.5 << 200.0 << 0.0 << 1.0;
    QTest::newRow("tiny sigma") << 3e-8 << 5.0 << 0.0 << 1e-8;
    QTest::newRow("huge sigma") << -3.0 << 7.0 << 7.0 << 1e8;
  }
  void logProbMatchesFormula() {
    QFETCH(double, x);
    QFETCH(double, nu);
    QFETCH(double, mu);
    QFETCH(double, sigma);
    const double got =
        StudentT(scalar(nu), scalar(mu), scalar(sigma)).log_prob(scalar(x)).item<double>();
    const double expected = naive_student_t_log_density(x, nu, mu, sigma);
    QVERIFY2(std::abs(got - expected) <= 1e-12 * std::max(1.0, std::abs(expected)),
             qPrintable(QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
  }

  void logProbAtInfinityIsMinusInfinity() {
    const StudentT student_t(scalar(3.0), scalar(0.0), scalar(1.0));
    QCOMPARE(student_t.log_prob(scalar(kInf)).item<double>(), -kInf);
    QCOMPARE(student_t.log_prob(scalar(-kInf)).item<double>(), -kInf);
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("nu");
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("sigma");
    QTest::newRow("near mode") << 0.1 << 3.0 << 0.0 << 1.0;
    QTest::newRow("tail") << 5.0 << 1.5 << -1.0 << 0.7;
    QTest::newRow("wide") << 100.0 << 30.0 << 3.0 << 50.0;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(double, x);
    QFETCH(double, nu);
    QFETCH(double, mu);
    QFETCH(double, sigma);
    // One vector holds (x, nu, mu, sigma) so a single check covers every argument.
    const auto log_prob = [](const at::Tensor& p) {
      return StudentT(p[1], p[2], p[3]).log_prob(p[0]);
    };
    const std::string error =
        vtest::compare_gradients(log_prob, at::tensor({x, nu, mu, sigma}, at::kDouble));
    QVERIFY2(error.empty(), error.c_str());
  }

  void batchShapesBroadcast() {
    const at::Tensor nu = at::tensor({1.0, 4.0, 9.0}, at::kDouble).reshape({3, 1});
    const at::Tensor mu = at::tensor({-1.0, 0.0, 2.0, 5.0}, at::kDouble);
    StudentT student_t(nu, mu, scalar(1.5));
    QCOMPARE(student_t.batch_shape(), (variate::Shape{3, 4}));
    QVERIFY(student_t.event_shape().empty());
    const at::Tensor log_prob = student_t.log_prob(at::full({2, 1, 1}, 0.8, at::kDouble));
    QCOMPARE(log_prob.sizes(), (c10::IntArrayRef{2, 3, 4}));
    // Each batch entry uses its own parameters.
    QCOMPARE(log_prob[1][2][3].item<double>(), naive_student_t_log_density(0.8, 9.0, 5.0, 1.5));
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(student_t.sample({5}, generator).sizes(), (c10::IntArrayRef{5, 3, 4}));
  }

  void samplerMatchesMoments() {
    // nu = 10: the fourth moment (for the variance's standard error) exists, and so does
    // the eighth that makes that standard error itself reliable.
    at::Generator generator = at::detail::createCPUGenerator(42);
    const double nu = 10.0;
    const double sigma = 2.0;
    const at::Tensor draws =
        StudentT(scalar(nu), scalar(1.0), scalar(sigma)).sample({100000}, generator);
    const double variance = sigma * sigma * nu / (nu - 2);
    const std::string error = vtest::check_moments(draws, scalar(1.0), scalar(variance));
    QVERIFY2(error.empty(), error.c_str());
  }

  void samplerPassesKolmogorovSmirnov_data() {
    QTest::addColumn<double>("nu");
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("sigma");
    QTest::newRow("nu = 3") << 3.0 << -1.0 << 2.0;
    QTest::newRow("nu < 1") << 0.7 << 4.0 << 0.5;
    QTest::newRow("nu large") << 60.0 << 0.0 << 3.0;
  }
  void samplerPassesKolmogorovSmirnov() {
    QFETCH(double, nu);
    QFETCH(double, mu);
    QFETCH(double, sigma);
    at::Generator generator = at::detail::createCPUGenerator(7);
    const at::Tensor draws =
        StudentT(scalar(nu), scalar(mu), scalar(sigma)).sample({20000}, generator);
    const auto ks = vtest::ks_test(
        draws, [&](double x) { return student_t_cdf(x, nu, mu, sigma); });
    QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("KS p-value %1").arg(ks.p_value)));
  }

  void samplesAreDifferentiableInEveryParameter() {
    const at::Tensor nu = scalar(4.0).requires_grad_(true);
    const at::Tensor mu = scalar(1.0).requires_grad_(true);
    const at::Tensor sigma = scalar(2.0).requires_grad_(true);
    at::Generator generator = at::detail::createCPUGenerator(11);
    StudentT(nu, mu, sigma).sample({1000}, generator).abs().sum().backward();
    for (const at::Tensor& p : {nu, mu, sigma}) {
      QVERIFY(p.grad().defined());
      QVERIFY(std::isfinite(p.grad().item<double>()));
      QVERIFY(p.grad().item<double>() != 0.0);
    }
  }

  void samplingIsReproducible() {
    const StudentT student_t(scalar(3.0), scalar(0.0), scalar(1.0));
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const at::Tensor first = student_t.sample({10}, a);
    at::randn({7});  // the global generator must play no part
    QVERIFY(at::equal(first, student_t.sample({10}, b)));
    at::Generator c = at::detail::createCPUGenerator(4);
    QVERIFY(!at::equal(first, student_t.sample({10}, c)));
  }

  void float32StaysFloat32() {
    const StudentT student_t(at::tensor({3.0f}), at::tensor({0.2f}), at::tensor({1.5f}));
    const at::Tensor log_prob = student_t.log_prob(at::tensor({0.3f}));
    QCOMPARE(log_prob.scalar_type(), at::kFloat);
    QVERIFY(std::abs(log_prob.item<double>() - naive_student_t_log_density(0.3, 3, 0.2, 1.5)) <
            1e-5);
    at::Generator generator = at::detail::createCPUGenerator(5);
    QCOMPARE(student_t.sample({3}, generator).scalar_type(), at::kFloat);
  }

  void factoryBuildsRandomVariable() {
    const variate::RandomVariable x = variate::StudentT("x", 4.0, 0.0, 2.5, {3});
    QCOMPARE(QString::fromStdString(x.name()), QString("x"));
    QCOMPARE(QString::fromStdString(x.distribution().name()), QString("StudentT"));
    QCOMPARE(x.shape(), (variate::Shape{3}));
  }

  void invalidParametersThrow_data() {
    QTest::addColumn<double>("nu");
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero nu") << 0.0 << 0.0 << 1.0 << QString("StudentT: argument 'nu' must be positive, got 0");
    QTest::newRow("negative nu") << -3.0 << 0.0 << 1.0 << QString("StudentT: argument 'nu' must be positive, got -3");
    QTest::newRow("infinite nu") << kInf << 0.0 << 1.0 << QString("StudentT: argument 'nu' must be finite, got inf");
    QTest::newRow("zero sigma") << 3.0 << 0.0 << 0.0 << QString("StudentT: argument 'sigma' must be positive, got 0");
    QTest::newRow("negative sigma") << 3.0 << 0.0 << -2.0 << QString("StudentT: argument 'sigma' must be positive, got -2");
    QTest::newRow("nan sigma") << 3.0 << 0.0 << std::nan("") << QString("StudentT: argument 'sigma' must be positive, got nan");
    QTest::newRow("infinite mu") << 3.0 << -kInf << 1.0 << QString("StudentT: argument 'mu' must be finite, got -inf");
  }
  void invalidParametersThrow() {
    QFETCH(double, nu);
    QFETCH(double, mu);
    QFETCH(double, sigma);
    QFETCH(QString, message);
    try {
      StudentT(scalar(nu), scalar(mu), scalar(sigma));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void invalidElementIsLocated() {
    try {
      StudentT(at::tensor({1.0, 2.0, -1.0}, at::kDouble), scalar(0.0), scalar(1.0));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("StudentT: argument 'nu' must be positive, got -1 (at index [2])"));
    }
  }
};

QTEST_APPLESS_MAIN(TestStudentT)
#include "tst_student_t.moc"
