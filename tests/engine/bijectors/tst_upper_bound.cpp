// UpperBound, x = upper - exp(y): round trips within the conditioning, log|J| against the
// autograd Jacobian, outputs inside the support, batches, names and errors.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "tests/support/bijector_check.h"
#include "engine/bijectors/upper_bound.h"
#include "engine/core/checks.h"
#include "engine/core/support.h"

using variate::bijectors::UpperBound;
namespace vtest = variate::testing;

namespace {

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }
at::Tensor flat(const at::Tensor& x) { return x.reshape(-1); }

// Points shared by the round-trip, log-det and support tests: ordinary ones and |y| up to
// 30, where exp(y) spans 1e-13 .. 1e13 around the bound.
void addPoints() {
  QTest::addColumn<double>("upper");
  QTest::addColumn<double>("y");
  QTest::newRow("upper 0, y = 0") << 0.0 << 0.0;
  QTest::newRow("upper 0, y = 1.3") << 0.0 << 1.3;
  QTest::newRow("upper 0, y = -30") << 0.0 << -30.0;
  QTest::newRow("upper 0, y = 30") << 0.0 << 30.0;
  QTest::newRow("upper -2.5, y = 20") << -2.5 << 20.0;
  QTest::newRow("upper -2.5, y = -25") << -2.5 << -25.0;
  // x = 100 - 2e-9 keeps only ~5 digits of exp(y): the tolerance follows that.
  QTest::newRow("upper 100, y = -20") << 100.0 << -20.0;
}

}  // namespace

class TestUpperBound : public QObject {
  Q_OBJECT

 private slots:
  void roundTrip_data() { addPoints(); }
  void roundTrip() {
    QFETCH(double, upper);
    QFETCH(double, y);
    const std::string error =
        vtest::check_elementwise_round_trip(UpperBound(scalar(upper)), y, std::abs(upper));
    QVERIFY2(error.empty(), error.c_str());
  }

  void inverseRoundTrip_data() {
    QTest::addColumn<double>("upper");
    QTest::addColumn<double>("x");
    QTest::newRow("just below 0") << 0.0 << -1e-300;
    QTest::newRow("small") << 0.0 << -1e-8;
    QTest::newRow("ordinary") << 0.0 << -3.7;
    QTest::newRow("huge") << 0.0 << -1e12;
    QTest::newRow("just below -2.5") << -2.5 << -2.5 - 1e-9;
    QTest::newRow("far below -2.5") << -2.5 << -1e5;
    QTest::newRow("below 100") << 100.0 << 99.5;
  }
  void inverseRoundTrip() {
    QFETCH(double, upper);
    QFETCH(double, x);
    const std::string error =
        vtest::check_elementwise_inverse_round_trip(UpperBound(scalar(upper)), x, std::abs(upper));
    QVERIFY2(error.empty(), error.c_str());
  }

  void logDetMatchesAutograd_data() { addPoints(); }
  void logDetMatchesAutograd() {
    QFETCH(double, upper);
    QFETCH(double, y);
    const std::string error =
        vtest::check_log_det(UpperBound(scalar(upper)), scalar(y), flat, 1e-15);
    QVERIFY2(error.empty(), error.c_str());
  }

  void forwardStaysInSupport_data() { addPoints(); }
  void forwardStaysInSupport() {
    QFETCH(double, upper);
    QFETCH(double, y);
    const at::Tensor x = UpperBound(scalar(upper)).forward(scalar(y));
    QVERIFY2(variate::Support::upper_bounded(scalar(upper)).contains(x).item<bool>(),
             qPrintable(QString("x = %1").arg(x.item<double>(), 0, 'g', 17)));
  }

  void randomPoints_data() {
    QTest::addColumn<double>("upper");
    QTest::addColumn<int>("seed");
    QTest::newRow("upper 0") << 0.0 << 11;
    QTest::newRow("upper -2.5") << -2.5 << 12;
    QTest::newRow("upper 7") << 7.0 << 13;
  }
  void randomPoints() {
    QFETCH(double, upper);
    QFETCH(int, seed);
    at::Generator generator = at::detail::createCPUGenerator(seed);
    const at::Tensor y = 6 * at::randn({40}, generator, at::kDouble);
    const UpperBound bijector(scalar(upper));
    const at::Tensor x = bijector.forward(y);
    QVERIFY(variate::Support::upper_bounded(scalar(upper)).contains(x).all().item<bool>());
    for (int64_t i = 0; i < y.numel(); ++i) {
      const std::string error =
          vtest::check_elementwise_round_trip(bijector, y[i].item<double>(), std::abs(upper));
      QVERIFY2(error.empty(), error.c_str());
    }
    // The 40 x 40 autograd Jacobian, whose log|det| is the sum of the elementwise terms.
    const std::string error = vtest::check_log_det(bijector, y, flat, 1e-15);
    QVERIFY2(error.empty(), error.c_str());
  }

  void batchMatchesSingles() {
    at::Generator generator = at::detail::createCPUGenerator(5);
    const at::Tensor y = 3 * at::randn({3, 2, 4}, generator, at::kDouble);
    std::string error = vtest::check_batch_matches_singles(UpperBound(scalar(-1.0)), y);
    QVERIFY2(error.empty(), error.c_str());
    // A bound per coordinate broadcasts against the batch.
    const UpperBound per_coordinate(at::tensor({0.0, 1.0, -2.0, 5.0}, at::kDouble));
    const at::Tensor x = per_coordinate.forward(y);
    QCOMPARE(x.sizes(), (c10::IntArrayRef{3, 2, 4}));
    QVERIFY(at::allclose(x[2][1], per_coordinate.upper() - at::exp(y[2][1]), 1e-15, 0));
    // The inverse to the conditioning of check_elementwise_round_trip.
    const at::Tensor tolerance =
        8 * vtest::kEps * (y.abs() + (x.abs() + per_coordinate.upper().abs()) * at::exp(-y));
    error = vtest::compare_close(per_coordinate.inverse(x), y, tolerance, "per-coordinate inverse");
    QVERIFY2(error.empty(), error.c_str());
  }

  void shapes() {
    const UpperBound bijector(scalar(0.0));
    QCOMPARE(bijector.unconstrained_event_rank(), int64_t{0});
    QCOMPARE(bijector.unconstrained_shape({3, 2}), (variate::Shape{3, 2}));
    QCOMPARE(bijector.forward_log_det_jacobian(at::zeros({3, 2}, at::kDouble)).sizes(),
             (c10::IntArrayRef{3, 2}));
  }

  void name_data() {
    QTest::addColumn<double>("upper");
    QTest::addColumn<QString>("name");
    QTest::newRow("zero") << 0.0 << QString("upper_bound(0)");
    QTest::newRow("negative") << -2.5 << QString("upper_bound(-2.5)");
  }
  void name() {
    QFETCH(double, upper);
    QFETCH(QString, name);
    QCOMPARE(QString::fromStdString(UpperBound(scalar(upper)).name()), name);
  }
  void nameOfTensorBound() {
    QCOMPARE(QString::fromStdString(UpperBound(at::zeros({3}, at::kDouble)).name()),
             QString("upper_bound(tensor[3])"));
  }

  void integerBoundBecomesFloating() {
    const UpperBound bijector(at::scalar_tensor(2, at::kLong));
    QCOMPARE(bijector.upper().scalar_type(), at::kDouble);
    QCOMPARE(bijector.forward(scalar(0.0)).item<double>(), 1.0);
  }

  void float32KeepsDtype() {
    const UpperBound bijector(scalar(1.0));
    const at::Tensor y = at::tensor({-3.0f, 0.0f, 2.5f});
    const at::Tensor x = bijector.forward(y);
    QCOMPARE(x.scalar_type(), at::kFloat);
    QCOMPARE(bijector.forward_log_det_jacobian(y).scalar_type(), at::kFloat);
    QCOMPARE(bijector.inverse(x).scalar_type(), at::kFloat);
    QVERIFY(at::allclose(x.to(at::kDouble), bijector.forward(y.to(at::kDouble)), 1e-6, 0));
    QVERIFY(at::allclose(bijector.inverse(x), y, 1e-5, 1e-5));
  }

  void invalidBoundThrows_data() {
    QTest::addColumn<double>("upper");
    QTest::addColumn<QString>("message");
    QTest::newRow("infinite") << std::numeric_limits<double>::infinity()
                              << QString("UpperBound: argument 'upper' must be finite, got inf");
    QTest::newRow("nan") << std::nan("")
                         << QString("UpperBound: argument 'upper' must be finite, got nan");
  }
  void invalidBoundThrows() {
    QFETCH(double, upper);
    QFETCH(QString, message);
    try {
      UpperBound bijector(scalar(upper));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void inverseOutsideSupportThrows_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<QString>("message");
    QTest::newRow("above") << 1.0 << QString("UpperBound: argument 'x' must be less than the upper bound 0, got 1");
    QTest::newRow("on the bound") << 0.0 << QString("UpperBound: argument 'x' must be less than the upper bound 0, got 0");
    QTest::newRow("nan") << std::nan("") << QString("UpperBound: argument 'x' must be less than the upper bound 0, got nan");
  }
  void inverseOutsideSupportThrows() {
    QFETCH(double, x);
    QFETCH(QString, message);
    try {
      UpperBound(scalar(0.0)).inverse(scalar(x));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void inverseErrorLocatesElement() {
    try {
      UpperBound(scalar(1.0)).inverse(at::tensor({0.5, 2.0}, at::kDouble));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("UpperBound: argument 'x' must be less than the upper bound 1, got 2 (at index [1])"));
    }
  }

  void validationGuardSkipsInverseCheck() {
    const variate::ValidationGuard off(false);
    QVERIFY(std::isnan(UpperBound(scalar(0.0)).inverse(scalar(1.0)).item<double>()));
  }
};

QTEST_APPLESS_MAIN(TestUpperBound)
#include "tst_upper_bound.moc"
