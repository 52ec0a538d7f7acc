// Interval, x = lower + (upper - lower) inv_logit(y): round trips within the conditioning,
// log|J| against the autograd Jacobian (also at |y| = 30, where the derivative of a naive
// inv_logit loses its digits), outputs inside the support, batches, names and errors.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "tests/support/bijector_check.h"
#include "engine/bijectors/interval.h"
#include "engine/core/checks.h"
#include "engine/core/support.h"

using variate::bijectors::Interval;
namespace vtest = variate::testing;

namespace {

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }
at::Tensor flat(const at::Tensor& x) { return x.reshape(-1); }

Interval interval(double lower, double upper) { return Interval(scalar(lower), scalar(upper)); }

// Ordinary points and |y| up to 30, where the constrained value sits within ~1e-13 of a
// bound relative to the width.
void addPoints() {
  QTest::addColumn<double>("lower");
  QTest::addColumn<double>("upper");
  QTest::addColumn<double>("y");
  QTest::newRow("unit, y = 0") << 0.0 << 1.0 << 0.0;
  QTest::newRow("unit, y = 1.3") << 0.0 << 1.0 << 1.3;
  QTest::newRow("unit, y = -0.2") << 0.0 << 1.0 << -0.2;
  QTest::newRow("unit, y = -30") << 0.0 << 1.0 << -30.0;
  QTest::newRow("unit, y = 30") << 0.0 << 1.0 << 30.0;
  QTest::newRow("(-2, 3), y = 20") << -2.0 << 3.0 << 20.0;
  QTest::newRow("(-2, 3), y = -25") << -2.0 << 3.0 << -25.0;
  QTest::newRow("(100, 101), y = -20") << 100.0 << 101.0 << -20.0;
  QTest::newRow("(-1e3, 1e3), y = 15") << -1e3 << 1e3 << 15.0;
  QTest::newRow("narrow, y = 2") << 1.0 << 1.0 + 1e-6 << 2.0;
}

}  // namespace

class TestInterval : public QObject {
  Q_OBJECT

 private slots:
  void roundTrip_data() { addPoints(); }
  void roundTrip() {
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(double, y);
    const std::string error = vtest::check_elementwise_round_trip(
        interval(lower, upper), y, std::abs(lower) + std::abs(upper));
    QVERIFY2(error.empty(), error.c_str());
  }

  void inverseRoundTrip_data() {
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::addColumn<double>("x");
    QTest::newRow("just above 0") << 0.0 << 1.0 << 1e-300;
    QTest::newRow("middle") << 0.0 << 1.0 << 0.5;
    QTest::newRow("just below 1") << 0.0 << 1.0 << 1 - 1e-15;
    QTest::newRow("just below 3") << -2.0 << 3.0 << 3 - 1e-12;
    QTest::newRow("just above -2") << -2.0 << 3.0 << -2 + 1e-12;
    QTest::newRow("in (100, 101)") << 100.0 << 101.0 << 100.25;
  }
  void inverseRoundTrip() {
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(double, x);
    const std::string error = vtest::check_elementwise_inverse_round_trip(
        interval(lower, upper), x, std::abs(lower) + std::abs(upper));
    QVERIFY2(error.empty(), error.c_str());
  }

  void forwardMatchesFormula_data() { addPoints(); }
  void forwardMatchesFormula() {
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(double, y);
    const double got = interval(lower, upper).forward(scalar(y)).item<double>();
    const double expected = lower + (upper - lower) / (1 + std::exp(-y));
    QVERIFY2(std::abs(got - expected) <= 4 * vtest::kEps * (std::abs(lower) + std::abs(upper)),
             qPrintable(QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
  }

  void logDetMatchesAutograd_data() { addPoints(); }
  void logDetMatchesAutograd() {
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(double, y);
    const std::string error = vtest::check_log_det(interval(lower, upper), scalar(y), flat, 1e-15);
    QVERIFY2(error.empty(), error.c_str());
  }

  void forwardStaysInSupport_data() { addPoints(); }
  void forwardStaysInSupport() {
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(double, y);
    const at::Tensor x = interval(lower, upper).forward(scalar(y));
    QVERIFY2(variate::Support::interval(scalar(lower), scalar(upper)).contains(x).item<bool>(),
             qPrintable(QString("x = %1").arg(x.item<double>(), 0, 'g', 17)));
  }

  void randomPoints_data() {
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::addColumn<int>("seed");
    QTest::newRow("unit") << 0.0 << 1.0 << 21;
    QTest::newRow("(-2, 3)") << -2.0 << 3.0 << 22;
    QTest::newRow("(10, 1e4)") << 10.0 << 1e4 << 23;
  }
  void randomPoints() {
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(int, seed);
    at::Generator generator = at::detail::createCPUGenerator(seed);
    const at::Tensor y = 6 * at::randn({40}, generator, at::kDouble);
    const Interval bijector = interval(lower, upper);
    const at::Tensor x = bijector.forward(y);
    QVERIFY(variate::Support::interval(scalar(lower), scalar(upper)).contains(x).all().item<bool>());
    for (int64_t i = 0; i < y.numel(); ++i) {
      const std::string error = vtest::check_elementwise_round_trip(
          bijector, y[i].item<double>(), std::abs(lower) + std::abs(upper));
      QVERIFY2(error.empty(), error.c_str());
    }
    const std::string error = vtest::check_log_det(bijector, y, flat, 1e-15);
    QVERIFY2(error.empty(), error.c_str());
  }

  void batchMatchesSingles() {
    at::Generator generator = at::detail::createCPUGenerator(6);
    const at::Tensor y = 3 * at::randn({3, 2, 4}, generator, at::kDouble);
    std::string error = vtest::check_batch_matches_singles(interval(-1.0, 2.0), y);
    QVERIFY2(error.empty(), error.c_str());
    // Bounds per coordinate broadcast against the batch.
    const Interval per_coordinate(at::tensor({0.0, -1.0, 2.0, 5.0}, at::kDouble),
                                  at::tensor({1.0, 1.0, 3.0, 50.0}, at::kDouble));
    const at::Tensor x = per_coordinate.forward(y);
    QCOMPARE(x.sizes(), (c10::IntArrayRef{3, 2, 4}));
    const at::Tensor expected = per_coordinate.lower() +
        (per_coordinate.upper() - per_coordinate.lower()) * at::sigmoid(y);
    QVERIFY(at::allclose(x, expected, 1e-15, 1e-15));
    QCOMPARE(per_coordinate.forward_log_det_jacobian(y).sizes(), (c10::IntArrayRef{3, 2, 4}));
    QVERIFY(at::allclose(per_coordinate.inverse(x), y, 1e-12, 1e-12));
  }

  void centreMapsToMidpoint() {
    QCOMPARE(interval(0.0, 1.0).forward(scalar(0.0)).item<double>(), 0.5);
    QCOMPARE(interval(-2.0, 3.0).forward(scalar(0.0)).item<double>(), 0.5);
    QCOMPARE(interval(-2.0, 3.0).inverse(scalar(0.5)).item<double>(), 0.0);
  }

  void gradientIsFiniteAtZero() {
    // y = 0 is where the forward map switches between measuring from either bound.
    const at::Tensor jacobian = vtest::autograd_jacobian(
        [](const at::Tensor& y) { return interval(0.0, 4.0).forward(y); },
        at::zeros({1}, at::kDouble));
    QCOMPARE(jacobian.item<double>(), 1.0);  // (upper - lower) / 4
  }

  void name() {
    QCOMPARE(QString::fromStdString(interval(0.0, 1.0).name()), QString("interval(0, 1)"));
    QCOMPARE(QString::fromStdString(interval(-2.5, 1e6).name()), QString("interval(-2.5, 1e+06)"));
  }

  void float32KeepsDtype() {
    const Interval bijector = interval(-1.0, 2.0);
    const at::Tensor y = at::tensor({-3.0f, 0.0f, 2.5f});
    const at::Tensor x = bijector.forward(y);
    QCOMPARE(x.scalar_type(), at::kFloat);
    QCOMPARE(bijector.forward_log_det_jacobian(y).scalar_type(), at::kFloat);
    QCOMPARE(bijector.inverse(x).scalar_type(), at::kFloat);
    QVERIFY(at::allclose(x.to(at::kDouble), bijector.forward(y.to(at::kDouble)), 1e-6, 1e-6));
    QVERIFY(at::allclose(bijector.inverse(x), y, 1e-4, 1e-4));
  }

  void invalidBoundsThrow_data() {
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::addColumn<QString>("message");
    QTest::newRow("equal") << 1.0 << 1.0 << QString("Interval: argument 'lower' must be less than 'upper', got 1");
    QTest::newRow("reversed") << 2.0 << 1.0 << QString("Interval: argument 'lower' must be less than 'upper', got 2");
    QTest::newRow("infinite upper") << 0.0 << std::numeric_limits<double>::infinity()
                                    << QString("Interval: argument 'upper' must be finite, got inf");
    QTest::newRow("nan lower") << std::nan("") << 1.0 << QString("Interval: argument 'lower' must be finite, got nan");
  }
  void invalidBoundsThrow() {
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(QString, message);
    try {
      interval(lower, upper);
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void inverseOutsideSupportThrows_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<QString>("message");
    QTest::newRow("below") << -0.5 << QString("Interval: argument 'x' must be in the open interval (0, 1), got -0.5");
    QTest::newRow("on the lower bound") << 0.0 << QString("Interval: argument 'x' must be in the open interval (0, 1), got 0");
    QTest::newRow("on the upper bound") << 1.0 << QString("Interval: argument 'x' must be in the open interval (0, 1), got 1");
    QTest::newRow("above") << 7.0 << QString("Interval: argument 'x' must be in the open interval (0, 1), got 7");
  }
  void inverseOutsideSupportThrows() {
    QFETCH(double, x);
    QFETCH(QString, message);
    try {
      interval(0.0, 1.0).inverse(scalar(x));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void validationGuardSkipsInverseCheck() {
    const variate::ValidationGuard off(false);
    QVERIFY(std::isnan(interval(0.0, 1.0).inverse(scalar(2.0)).item<double>()));
  }
};

QTEST_APPLESS_MAIN(TestInterval)
#include "tst_interval.moc"
