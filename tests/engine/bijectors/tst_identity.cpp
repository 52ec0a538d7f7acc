// Identity: values pass through unchanged, log|J| = 0, shapes and dtypes are kept.

#include <limits>

#include <QtTest/QtTest>

#include "tests/support/bijector_check.h"
#include "engine/bijectors/identity.h"
#include "engine/core/support.h"

using variate::bijectors::Identity;
namespace vtest = variate::testing;

namespace {

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }
at::Tensor flat(const at::Tensor& x) { return x.reshape(-1); }

}  // namespace

class TestIdentity : public QObject {
  Q_OBJECT

 private slots:
  void valuesPassThrough_data() {
    QTest::addColumn<double>("y");
    QTest::newRow("zero") << 0.0;
    QTest::newRow("ordinary") << -1.7;
    QTest::newRow("large") << 30.0;
    QTest::newRow("huge") << 1e300;
    QTest::newRow("tiny") << -1e-300;
  }
  void valuesPassThrough() {
    QFETCH(double, y);
    const Identity bijector;
    QCOMPARE(bijector.forward(scalar(y)).item<double>(), y);
    QCOMPARE(bijector.inverse(scalar(y)).item<double>(), y);
    QCOMPARE(bijector.forward_log_det_jacobian(scalar(y)).item<double>(), 0.0);
    QVERIFY(variate::Support::real().contains(bijector.forward(scalar(y))).item<bool>());
    const std::string error = vtest::check_log_det(bijector, scalar(y), flat, 0.0);
    QVERIFY2(error.empty(), error.c_str());
  }

  void randomPoints() {
    at::Generator generator = at::detail::createCPUGenerator(31);
    const at::Tensor y = 10 * at::randn({30}, generator, at::kDouble);
    const Identity bijector;
    QVERIFY(at::equal(bijector.inverse(bijector.forward(y)), y));
    const std::string error = vtest::check_log_det(bijector, y, flat, 0.0);
    QVERIFY2(error.empty(), error.c_str());
  }

  void batchMatchesSingles() {
    at::Generator generator = at::detail::createCPUGenerator(32);
    const at::Tensor y = at::randn({3, 2, 4}, generator, at::kDouble);
    const std::string error = vtest::check_batch_matches_singles(Identity(), y, 0.0);
    QVERIFY2(error.empty(), error.c_str());
  }

  void shapesAndDtypes() {
    const Identity bijector;
    QCOMPARE(QString::fromStdString(bijector.name()), QString("identity"));
    QCOMPARE(bijector.unconstrained_event_rank(), int64_t{0});
    QCOMPARE(bijector.unconstrained_shape({4, 3}), (variate::Shape{4, 3}));
    const at::Tensor y = at::ones({2, 3}, at::kFloat);
    const at::Tensor log_det = bijector.forward_log_det_jacobian(y);
    QCOMPARE(log_det.sizes(), (c10::IntArrayRef{2, 3}));
    QCOMPARE(log_det.scalar_type(), at::kFloat);
    QCOMPARE(bijector.forward(y).scalar_type(), at::kFloat);
  }
};

QTEST_APPLESS_MAIN(TestIdentity)
#include "tst_identity.moc"
