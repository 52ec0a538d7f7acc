// Adam against Kingma & Ba's Algorithm 1 written out on doubles; the scaled steps ADVI
// uses; argument checks.

#include <cmath>
#include <vector>

#include <QtTest/QtTest>

#include "engine/vi/adam.h"

namespace vt = variate;

namespace {

// Algorithm 1 for one coordinate, as the paper writes it.
struct NaiveAdam {
  double rate, beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
  double m = 0, v = 0;
  int t = 0;
  double step(double x, double g) {
    ++t;
    m = beta1 * m + (1 - beta1) * g;
    v = beta2 * v + (1 - beta2) * g * g;
    const double m_hat = m / (1 - std::pow(beta1, t));
    const double v_hat = v / (1 - std::pow(beta2, t));
    return x - rate * m_hat / (std::sqrt(v_hat) + epsilon);
  }
};

}  // namespace

class TestAdam : public QObject {
  Q_OBJECT

 private slots:
  void matchesAlgorithmOne_data() {
    QTest::addColumn<double>("rate");
    QTest::addColumn<double>("beta2");
    QTest::newRow("defaults") << 1e-3 << 0.999;
    QTest::newRow("ADVI's") << 0.1 << 0.9;
  }
  void matchesAlgorithmOne() {
    QFETCH(double, rate);
    QFETCH(double, beta2);
    vt::Adam adam(vt::AdamOptions().learning_rate(rate).beta2(beta2));
    const at::Tensor x = at::tensor({1.5, -2.0, 0.25}, at::kDouble);
    std::vector<NaiveAdam> naive(3, NaiveAdam{rate});
    for (auto& n : naive) n.beta2 = beta2;
    std::vector<double> expected = {1.5, -2.0, 0.25};
    for (int t = 0; t < 20; ++t) {
      // The gradient of sum(c_i x_i^2) with different curvatures c = (1, 10, 0.1).
      const at::Tensor g = x * at::tensor({2.0, 20.0, 0.2}, at::kDouble);
      for (int i = 0; i < 3; ++i) expected[i] = naive[i].step(expected[i], g[i].item<double>());
      adam.step({x}, {g});
    }
    QCOMPARE(adam.steps(), 20L);
    for (int i = 0; i < 3; ++i) QVERIFY(std::abs(x[i].item<double>() - expected[i]) < 1e-12);
  }

  void minimizesAQuadratic() {
    vt::Adam adam(vt::AdamOptions().learning_rate(0.05));
    const at::Tensor x = at::tensor({3.0, -4.0}, at::kDouble);
    for (int t = 0; t < 2000; ++t) adam.step({x}, {2 * (x - at::tensor({1.0, 2.0}, at::kDouble))});
    QVERIFY(at::allclose(x, at::tensor({1.0, 2.0}, at::kDouble), 0, 1e-3));
  }

  // Scales s give steps of max(s, min(s^2 |m_hat|, 1)) times Adam's.
  void scaledStepsAreRelativeNearTheOptimumAndPlainFarFromIt() {
    const at::Tensor start = at::zeros({3}, at::kDouble);
    const at::Tensor g = at::tensor({1e-2, 1e6, 4.0}, at::kDouble);
    const at::Tensor s = at::tensor({1e-3, 1e-2, 1.0}, at::kDouble);
    const at::Tensor plain = start.clone(), scaled = start.clone();
    vt::Adam a(vt::AdamOptions().learning_rate(0.1)), b(vt::AdamOptions().learning_rate(0.1));
    a.step({plain}, {g});
    b.step({scaled}, {g}, {s});
    // Adam's first step is -rate * sign(g); here s^2 |g| is 1e-8, 100 (capped at 1) and 4.
    const at::Tensor factor = at::tensor({1e-3, 1.0, 1.0}, at::kDouble);
    QVERIFY(at::allclose(plain, -0.1 * at::ones({3}, at::kDouble), 0, 1e-6));
    QVERIFY(at::allclose(scaled, plain * factor, 0, 1e-9));
    // Between the bounds: s = 0.1, g = 20 gives s^2 |g| = 0.2.
    const at::Tensor between = at::zeros({1}, at::kDouble);
    vt::Adam c(vt::AdamOptions().learning_rate(0.1));
    c.step({between}, {at::full({1}, 20.0, at::kDouble)}, {at::full({1}, 0.1, at::kDouble)});
    QVERIFY(std::abs(between.item<double>() + 0.1 * 0.2) < 1e-9);
  }

  void resetAndLearningRate() {
    vt::Adam adam(vt::AdamOptions().learning_rate(0.1));
    const at::Tensor x = at::zeros({1}, at::kDouble);
    adam.step({x}, {at::ones({1}, at::kDouble)});
    adam.set_learning_rate(0.01);
    QCOMPARE(adam.options().learning_rate(), 0.01);
    adam.reset();
    QCOMPARE(adam.steps(), 0L);
    x.zero_();
    adam.step({x}, {at::ones({1}, at::kDouble)});
    QVERIFY(std::abs(x.item<double>() + 0.01) < 1e-9);  // a first step again
  }

  void rejectsBadArguments() {
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::AdamOptions().learning_rate(0));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::AdamOptions().learning_rate(NAN));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::AdamOptions().beta1(1.0));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::AdamOptions().beta2(-0.1));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::AdamOptions().epsilon(0));
    vt::Adam adam;
    const at::Tensor x = at::zeros({2}, at::kDouble);
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, adam.step({x}, {}));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, adam.step({x}, {at::zeros({3}, at::kDouble)}));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, adam.step({x}, {x}, {x, x}));
    adam.step({x}, {x});
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, adam.step({x, x}, {x, x}));
  }
};

QTEST_APPLESS_MAIN(TestAdam)
#include "tst_adam.moc"
