// Flat(): log density 0 on the finite reals, -inf elsewhere; it cannot be sampled.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "variate/core/checks.h"
#include "variate/distributions/flat.h"

using variate::distributions::Flat;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

}  // namespace

class TestFlat : public QObject {
  Q_OBJECT

 private slots:
  void logProbIsZeroOnFiniteReals_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("expected");
    QTest::newRow("zero") << 0.0 << 0.0;
    QTest::newRow("negative") << -3.5 << 0.0;
    QTest::newRow("huge") << 1e300 << 0.0;
    QTest::newRow("tiny") << -1e-300 << 0.0;
    QTest::newRow("plus infinity") << kInf << -kInf;
    QTest::newRow("minus infinity") << -kInf << -kInf;
    QTest::newRow("nan") << std::nan("") << -kInf;
  }
  void logProbIsZeroOnFiniteReals() {
    QFETCH(double, x);
    QFETCH(double, expected);
    QCOMPARE(Flat().log_prob(scalar(x)).item<double>(), expected);
  }

  void logProbKeepsValueShape() {
    const at::Tensor lp = Flat().log_prob(at::randn({4, 2}, at::kDouble));
    QCOMPARE(lp.sizes(), (c10::IntArrayRef{4, 2}));
    QVERIFY(at::equal(lp, at::zeros({4, 2}, at::kDouble)));
  }

  void integerValuesWork() {
    const at::Tensor lp = Flat().log_prob(at::tensor({-2, 0, 7}, at::kLong));
    QCOMPARE(lp.scalar_type(), at::kDouble);
    QVERIFY(at::equal(lp, at::zeros({3}, at::kDouble)));
  }

  void float32StaysFloat32() {
    QCOMPARE(Flat().log_prob(at::ones({2}, at::kFloat)).scalar_type(), at::kFloat);
  }

  // The result stays on the value's autograd graph, with a zero (not NaN) gradient, so a
  // model whose only term is Flat can still be differentiated.
  void gradientIsZero() {
    const at::Tensor x = at::tensor({-1.0, 2.0, kInf}, at::kDouble).requires_grad_(true);
    Flat().log_prob(x).sum().backward();
    QVERIFY(x.grad().defined());
    QVERIFY(at::equal(x.grad(), at::zeros({3}, at::kDouble)));
  }

  void shapesAndSupport() {
    const Flat flat;
    QVERIFY(flat.batch_shape().empty());
    QVERIFY(flat.event_shape().empty());
    QCOMPARE(flat.support().to_string(), std::string("real"));
    QCOMPARE(flat.name(), std::string("Flat"));
  }

  void samplingThrows() {
    at::Generator generator = at::detail::createCPUGenerator(1);
    try {
      Flat().sample({3}, generator);
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), QString("Flat: an improper distribution cannot be sampled"));
    }
  }

  void factoryBuildsRandomVariable() {
    const auto x = variate::Flat("mu", {3});
    QCOMPARE(x.name(), std::string("mu"));
    QCOMPARE(x.distribution().name(), std::string("Flat"));
    QCOMPARE(x.shape(), (variate::Shape{3}));
    QVERIFY(!x.has_value());
  }
};

QTEST_APPLESS_MAIN(TestFlat)
#include "tst_flat.moc"
