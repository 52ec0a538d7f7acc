// RandomVariable: shapes, values, and arithmetic that reads like the maths.

#include <QtTest/QtTest>

#include "engine/core/checks.h"
#include "engine/core/condition.h"
#include "engine/core/random_variable.h"
#include "engine/core/tracing.h"
#include "engine/distributions/normal.h"

namespace vt = variate;

namespace {
at::Tensor vec(std::vector<double> v) { return at::tensor(v, at::kDouble); }
}  // namespace

class TestRandomVariable : public QObject {
  Q_OBJECT

 private slots:
  void shapeIsSampleThenBatchThenEvent() {
    const auto rv = vt::Normal("x", at::zeros({3}, at::kDouble), 1.0, {2});
    QCOMPARE(rv.shape(), (vt::Shape{2, 3}));
    QCOMPARE(rv.value().sizes(), (c10::IntArrayRef{2, 3}));
    QCOMPARE(rv.log_prob().sizes(), (c10::IntArrayRef{2, 3}));
  }

  void givenValueIsKept() {
    vt::RandomVariable rv({"x", std::make_shared<vt::distributions::Normal>(
                                     at::scalar_tensor(0.0, at::kDouble),
                                     at::scalar_tensor(1.0, at::kDouble)),
                           {2}, vec({1.0, 2.0}), std::nullopt});
    QVERIFY(at::equal(rv.value(), vec({1.0, 2.0})));
  }

  void givenValueOfTheWrongShapeIsAnError() {
    // A [1] value for a [3] variable would broadcast into three copies of one density.
    vt::Condition wrong({{"z", at::zeros({1}, at::kDouble)}});
    {
      vt::TracerScope scope(wrong);
      try {
        vt::Normal("z", 0.0, 1.0, {3});
        QFAIL("no exception");
      } catch (const vt::ArgumentError& e) {
        QCOMPARE(QString(e.what()),
                 QString("RandomVariable 'z': the given value has shape [1], expected [3]"));
      }
    }
    // So would a batch of points, outside a batched evaluation; inside one it is expected.
    vt::Condition batch({{"z", at::zeros({5, 3}, at::kDouble)}});
    vt::TracerScope scope(batch);
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::Normal("z", 0.0, 1.0, {3}));
    vt::BatchedEvaluationScope batched;
    QCOMPARE(vt::Normal("z", 0.0, 1.0, {3}).value().sizes(), (c10::IntArrayRef{5, 3}));
  }

  void copiesShareTheirValue() {
    const auto a = vt::Normal("x", 0.0, 1.0);
    const vt::RandomVariable b = a;
    QCOMPARE(a.value().item<double>(), b.value().item<double>());
  }

  void sampleUsesTheGivenGenerator() {
    const auto rv = vt::Normal("x", 0.0, 1.0, {4});
    at::Generator g1 = at::detail::createCPUGenerator(5);
    at::Generator g2 = at::detail::createCPUGenerator(5);
    QVERIFY(at::equal(rv.sample(g1), rv.sample(g2)));
  }

  void arithmeticCombinesValues() {
    vt::RandomVariable a({"a", std::make_shared<vt::distributions::Normal>(vec({0, 0}), vec({1, 1})),
                          {}, vec({1.0, 2.0}), std::nullopt});
    vt::RandomVariable b({"b", std::make_shared<vt::distributions::Normal>(vec({0, 0}), vec({1, 1})),
                          {}, vec({3.0, 5.0}), std::nullopt});
    QVERIFY(at::allclose(a + b, vec({4, 7})));
    QVERIFY(at::allclose(a - b, vec({-2, -3})));
    QVERIFY(at::allclose(a * b, vec({3, 10})));
    QVERIFY(at::allclose(a / b, vec({1.0 / 3, 0.4})));
    QVERIFY(at::allclose(a * 2.0 + 1.0, vec({3, 5})));
    QVERIFY(at::allclose(1.0 - a, vec({0, -1})));
    QVERIFY(at::allclose(10.0 / b, vec({10.0 / 3, 2})));
    QVERIFY(at::allclose(-a, vec({-1, -2})));
    QVERIFY(at::allclose(vec({1, 1}) * a, vec({1, 2})));
    const at::Tensor m = at::tensor({1.0, 2.0, 3.0, 4.0}, at::kDouble).reshape({2, 2});
    QVERIFY(at::allclose(vt::matmul(m, a), vec({5, 11})));
    QVERIFY(at::allclose(vt::matvec(m, a), vec({5, 11})));
  }

  void matvecTakesBatchesOfVectors() {
    const at::Tensor m = at::randn({4, 3}, at::kDouble);
    const at::Tensor v = at::randn({5, 3}, at::kDouble);
    const at::Tensor batched = vt::matvec(m, v);
    QCOMPARE(batched.sizes(), (c10::IntArrayRef{5, 4}));
    for (int64_t b = 0; b < 5; ++b) {
      QVERIFY(at::allclose(batched[b], at::mv(m, v[b])));
    }
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vt::matvec(m, at::randn({4}, at::kDouble)));
  }

  void gradientsFlowThroughValues() {
    const at::Tensor x = at::tensor({0.5}, at::kDouble).requires_grad_(true);
    vt::RandomVariable rv({"x", std::make_shared<vt::distributions::Normal>(
                                     at::scalar_tensor(0.0, at::kDouble),
                                     at::scalar_tensor(2.0, at::kDouble)),
                           {1}, x, std::nullopt});
    rv.log_prob().sum().backward();
    QVERIFY(at::allclose(x.grad(), -x.detach() / 4.0));
  }
};

QTEST_APPLESS_MAIN(TestRandomVariable)
#include "tst_random_variable.moc"
