// Batches of points evaluated one point at a time, for models written for one point: the
// batched log density and gradient equal the single-point ones, where handing the model
// the batch would give wrong values (it indexes beta[0]).

#include <QtTest/QtTest>

#include "engine/target/pointwise_log_joint.h"
#include "engine/variate.h"

namespace vt = variate;

namespace {

// Not batch-polymorphic: beta[0] of a batch [B, 2] is the first point, not the first entry.
vt::RandomVariable regression(const vt::Data& d) {
  at::Tensor beta = vt::Normal("beta", 0.0, 1.0, {2});
  auto sigma = vt::HalfNormal("sigma", 1.0);
  return vt::Normal("y", beta[0] + beta[1] * d["x"], sigma);
}

vt::Data data() {
  return vt::Data()
      .set("x", at::tensor({-1.0, 0.0, 2.0}, at::kDouble))
      .set("y", at::tensor({0.5, 1.0, 2.5}, at::kDouble));
}

}  // namespace

class TestPointwiseLogJoint : public QObject {
  Q_OBJECT

 private slots:
  void batchEqualsPointByPoint() {
    const auto log_joint = vt::make_log_joint(regression, data());
    const auto layout = vt::ParameterLayout::from_model(log_joint);
    const vt::UnconstrainedTarget single(log_joint, layout);
    const vt::UnconstrainedTarget pointwise(vt::pointwise_log_joint(log_joint, layout), layout);
    at::Generator generator = at::detail::createCPUGenerator(3);
    const at::Tensor theta = at::randn({4, 3}, generator, at::kDouble);
    const auto [lp, gradient] = pointwise.log_density_and_gradient(theta);
    QCOMPARE(lp.sizes().vec(), (std::vector<int64_t>{4}));
    for (int64_t b = 0; b < 4; ++b) {
      const auto [lp_b, gradient_b] = single.log_density_and_gradient(theta[b]);
      QCOMPARE(lp[b].item<double>(), lp_b.item<double>());
      QVERIFY(at::equal(gradient[b], gradient_b));
    }
    // One point at a time too.
    QCOMPARE(pointwise.log_density(theta[1]).item<double>(), single.log_density(theta[1]).item<double>());
  }

  void modelErrorsReachTheCaller() {
    const auto failing = [] {
      vt::Normal("x", 0.0, 1.0);
      throw vt::ArgumentError("the model failed");
    };
    const auto log_joint = vt::make_log_joint(failing);
    vt::ParameterLayout layout;
    layout.add("x", {}, vt::Support::real());
    const vt::UnconstrainedTarget target(vt::pointwise_log_joint(log_joint, layout), layout);
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, target.log_density(at::zeros({2, 1}, at::kDouble)));
  }
};

QTEST_APPLESS_MAIN(TestPointwiseLogJoint)
#include "tst_pointwise_log_joint.moc"
