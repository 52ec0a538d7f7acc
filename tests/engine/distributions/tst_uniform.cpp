// Uniform(alpha, beta): density on the closed interval, gradients, the sampler (moments,
// KS, pathwise gradient), errors.

#include <algorithm>
#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/uniform.h"

using variate::distributions::Uniform;
namespace vtest = variate::testing;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

double naive_uniform_log_density(double x, double lower, double upper) {
  if (x < lower || x > upper || std::isnan(x)) return -kInf;
  return std::log(1.0 / (upper - lower));
}

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

bool near(double got, double expected, double tolerance) {
  if (std::isinf(got) || std::isinf(expected)) return got == expected;
  return std::abs(got - expected) <= tolerance * std::max(1.0, std::abs(expected));
}

}  // namespace

class TestUniform : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::newRow("unit interval") << 0.3 << 0.0 << 1.0;
    QTest::newRow("wide") << -7.0 << -10.0 << 90.0;
    QTest::newRow("narrow") << 1.0 + 1e-7 << 1.0 << 1.0 + 1e-6;
    QTest::newRow("lower endpoint") << 2.0 << 2.0 << 5.0;
    QTest::newRow("upper endpoint") << 5.0 << 2.0 << 5.0;
    QTest::newRow("below") << 1.999 << 2.0 << 5.0;
    QTest::newRow("above") << 5.001 << 2.0 << 5.0;
    QTest::newRow("infinity") << kInf << 2.0 << 5.0;
    QTest::newRow("nan") << std::nan("") << 2.0 << 5.0;
  }
  void logProbMatchesFormula() {
    QFETCH(double, x);
    QFETCH(double, alpha);
    QFETCH(double, beta);
    const double got = Uniform(scalar(alpha), scalar(beta)).log_prob(scalar(x)).item<double>();
    const double expected = naive_uniform_log_density(x, alpha, beta);
    QVERIFY2(near(got, expected, 1e-12), qPrintable(QString("got %1, expected %2")
                                                        .arg(got, 0, 'g', 17)
                                                        .arg(expected, 0, 'g', 17)));
  }

  // A density given by hand, so a wrong sign or a swapped bound cannot agree with it.
  void logProbMatchesKnownValue() {
    QCOMPARE(Uniform(scalar(-1.0), scalar(3.0)).log_prob(scalar(0.0)).item<double>(),
             -std::log(4.0));
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::newRow("unit") << 0.4 << 0.0 << 1.0;
    QTest::newRow("shifted") << -3.0 << -5.0 << 2.5;
    QTest::newRow("narrow") << 10.0 << 9.9 << 10.2;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(double, x);
    QFETCH(double, alpha);
    QFETCH(double, beta);
    const auto log_prob = [](const at::Tensor& p) {
      return Uniform(p[1], p[2]).log_prob(p[0]);
    };
    const at::Tensor point = at::tensor({x, alpha, beta}, at::kDouble);
    const std::string error = vtest::compare_gradients(log_prob, point);
    QVERIFY2(error.empty(), error.c_str());
    // d/dalpha = 1 / (beta - alpha): nonzero, so the check above is not vacuous.
    const at::Tensor gradient = vtest::autograd_gradient(log_prob, point);
    QVERIFY(std::abs(gradient[1].item<double>() - 1.0 / (beta - alpha)) < 1e-9 / (beta - alpha));
  }

  void gradientOutsideSupportIsZero() {
    const at::Tensor bounds = at::tensor({0.0, 1.0}, at::kDouble).requires_grad_(true);
    const at::Tensor lp = Uniform(bounds[0], bounds[1]).log_prob(scalar(2.0));
    QCOMPARE(lp.item<double>(), -kInf);
    lp.backward();
    QVERIFY(at::equal(bounds.grad(), at::zeros({2}, at::kDouble)));
  }

  void batchShapesBroadcast() {
    Uniform uniform(at::zeros({3, 1}, at::kDouble), at::arange(1, 5, at::kDouble));
    QCOMPARE(uniform.batch_shape(), (variate::Shape{3, 4}));
    QVERIFY(uniform.event_shape().empty());
    const at::Tensor lp = uniform.log_prob(at::full({2, 3, 4}, 0.5, at::kDouble));
    QCOMPARE(lp.sizes(), (c10::IntArrayRef{2, 3, 4}));
    QCOMPARE(lp[1][2][3].item<double>(), -std::log(4.0));
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(uniform.sample({5}, generator).sizes(), (c10::IntArrayRef{5, 3, 4}));
    const variate::Support support = uniform.support();
    QCOMPARE(support.kind(), variate::Support::Kind::Interval);
    QCOMPARE(support.upper().sizes(), (c10::IntArrayRef{3, 4}));
    QCOMPARE(support.upper()[0][3].item<double>(), 4.0);
  }

  void float32StaysFloat32() {
    Uniform uniform(at::zeros({2}, at::kFloat), at::ones({2}, at::kFloat));
    at::Generator generator = at::detail::createCPUGenerator(2);
    QCOMPARE(uniform.sample({3}, generator).scalar_type(), at::kFloat);
    QCOMPARE(uniform.log_prob(at::full({2}, 0.5, at::kFloat)).scalar_type(), at::kFloat);
  }

  void samplerMatchesMoments() {
    at::Generator generator = at::detail::createCPUGenerator(42);
    const at::Tensor draws = Uniform(scalar(-2.0), scalar(6.0)).sample({100000}, generator);
    const std::string error = vtest::check_moments(draws, scalar(2.0), scalar(64.0 / 12.0));
    QVERIFY2(error.empty(), error.c_str());
    QVERIFY(((draws >= -2.0) & (draws <= 6.0)).all().item<bool>());
  }

  void samplerPassesKolmogorovSmirnov() {
    at::Generator generator = at::detail::createCPUGenerator(7);
    const at::Tensor draws = Uniform(scalar(1.0), scalar(4.0)).sample({20000}, generator);
    const auto ks =
        vtest::ks_test(draws, [](double x) { return std::clamp((x - 1) / 3, 0.0, 1.0); });
    QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("KS p-value %1").arg(ks.p_value)));
  }

  // x = alpha + (beta - alpha) u: dx/dalpha = 1 - u and dx/dbeta = u.
  void samplerIsReparameterized() {
    const at::Tensor alpha = scalar(1.0).requires_grad_(true);
    const at::Tensor beta = scalar(4.0).requires_grad_(true);
    at::Generator generator = at::detail::createCPUGenerator(9);
    const at::Tensor draws = Uniform(alpha, beta).sample({1000}, generator);
    draws.sum().backward();
    const at::Tensor u = (draws.detach() - 1.0) / 3.0;
    QVERIFY(at::allclose(alpha.grad(), (1 - u).sum()));
    QVERIFY(at::allclose(beta.grad(), u.sum()));
  }

  void samplingIsReproducible() {
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const Uniform uniform(scalar(0.0), scalar(1.0));
    QVERIFY(at::equal(uniform.sample({10}, a), uniform.sample({10}, b)));
  }

  void invalidParametersThrow_data() {
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::addColumn<QString>("message");
    QTest::newRow("equal bounds") << 1.0 << 1.0 << QString("Uniform: argument 'alpha' must be less than 'beta', got 1");
    QTest::newRow("swapped bounds") << 3.0 << -2.0 << QString("Uniform: argument 'alpha' must be less than 'beta', got 3");
    QTest::newRow("infinite alpha") << -kInf << 1.0 << QString("Uniform: argument 'alpha' must be finite, got -inf");
    QTest::newRow("nan beta") << 0.0 << std::nan("") << QString("Uniform: argument 'beta' must be finite, got nan");
  }
  void invalidParametersThrow() {
    QFETCH(double, alpha);
    QFETCH(double, beta);
    QFETCH(QString, message);
    try {
      Uniform(scalar(alpha), scalar(beta));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void invalidElementIsLocated() {
    try {
      Uniform(at::zeros({3}, at::kDouble), at::tensor({1.0, 0.0, 2.0}, at::kDouble));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("Uniform: argument 'alpha' must be less than 'beta', got 0 (at index [1])"));
    }
  }

  void factoryBuildsRandomVariable() {
    const auto x = variate::Uniform("u", -1.0, 1.0, {2, 3});
    QCOMPARE(x.name(), std::string("u"));
    QCOMPARE(x.distribution().name(), std::string("Uniform"));
    QCOMPARE(x.shape(), (variate::Shape{2, 3}));
  }
};

QTEST_APPLESS_MAIN(TestUniform)
#include "tst_uniform.moc"
