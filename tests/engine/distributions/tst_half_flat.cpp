// HalfFlat(): log density 0 on the finite positive reals, -inf elsewhere; it cannot be
// sampled.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "variate/core/checks.h"
#include "variate/distributions/half_flat.h"

using variate::distributions::HalfFlat;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

}  // namespace

class TestHalfFlat : public QObject {
  Q_OBJECT

 private slots:
  void logProbIsZeroOnPositiveReals_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("expected");
    QTest::newRow("one") << 1.0 << 0.0;
    QTest::newRow("tiny positive") << 1e-300 << 0.0;
    QTest::newRow("huge") << 1e300 << 0.0;
    QTest::newRow("zero") << 0.0 << -kInf;
    QTest::newRow("negative") << -2.0 << -kInf;
    QTest::newRow("tiny negative") << -1e-300 << -kInf;
    QTest::newRow("plus infinity") << kInf << -kInf;
    QTest::newRow("nan") << std::nan("") << -kInf;
  }
  void logProbIsZeroOnPositiveReals() {
    QFETCH(double, x);
    QFETCH(double, expected);
    QCOMPARE(HalfFlat().log_prob(scalar(x)).item<double>(), expected);
  }

  void logProbKeepsValueShape() {
    const at::Tensor x = at::tensor({1.0, -1.0, 0.5, 0.0}, at::kDouble).reshape({2, 2});
    const at::Tensor expected =
        at::tensor({0.0, -kInf, 0.0, -kInf}, at::kDouble).reshape({2, 2});
    QVERIFY(at::equal(HalfFlat().log_prob(x), expected));
  }

  void integerValuesWork() {
    const at::Tensor lp = HalfFlat().log_prob(at::tensor({-2, 0, 7}, at::kLong));
    QCOMPARE(lp.scalar_type(), at::kDouble);
    QVERIFY(at::equal(lp, at::tensor({-kInf, -kInf, 0.0}, at::kDouble)));
  }

  void float32StaysFloat32() {
    QCOMPARE(HalfFlat().log_prob(at::ones({2}, at::kFloat)).scalar_type(), at::kFloat);
  }

  void gradientIsZero() {
    const at::Tensor x = at::tensor({-1.0, 2.0, kInf}, at::kDouble).requires_grad_(true);
    HalfFlat().log_prob(x).sum().backward();
    QVERIFY(x.grad().defined());
    QVERIFY(at::equal(x.grad(), at::zeros({3}, at::kDouble)));
  }

  void shapesAndSupport() {
    const HalfFlat half_flat;
    QVERIFY(half_flat.batch_shape().empty());
    QVERIFY(half_flat.event_shape().empty());
    QCOMPARE(half_flat.support().to_string(), std::string("positive"));
    QCOMPARE(half_flat.name(), std::string("HalfFlat"));
  }

  void samplingThrows() {
    at::Generator generator = at::detail::createCPUGenerator(1);
    try {
      HalfFlat().sample({}, generator);
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), QString("HalfFlat: an improper distribution cannot be sampled"));
    }
  }

  void factoryBuildsRandomVariable() {
    const auto x = variate::HalfFlat("sigma", {2});
    QCOMPARE(x.name(), std::string("sigma"));
    QCOMPARE(x.distribution().name(), std::string("HalfFlat"));
    QCOMPARE(x.shape(), (variate::Shape{2}));
  }
};

QTEST_APPLESS_MAIN(TestHalfFlat)
#include "tst_half_flat.moc"
