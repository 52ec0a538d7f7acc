#include "engine/target/unconstrained_target.h"

#include <limits>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/custom_function.h>

#include "engine/core/checks.h"

namespace variate {

UnconstrainedTarget::UnconstrainedTarget(LogJoint log_joint, ParameterLayout layout, at::Device device)
    : log_joint_(std::move(log_joint)), layout_(std::move(layout)), device_(device) {}

UnconstrainedTarget UnconstrainedTarget::with_point_density(
    std::shared_ptr<const PointDensity> density) const {
  UnconstrainedTarget target(log_joint_, layout_, device_);
  target.point_density_ = std::move(density);
  return target;
}

bool UnconstrainedTarget::uses_point_density(const at::Tensor& theta) const {
  return point_density_ && theta.device().is_cpu() && theta.scalar_type() == at::kDouble &&
         (theta.dim() == 1 || theta.dim() == 2);
}

namespace {

// This thread's evaluator of `density`, made on first use: an evaluator owns a copy of
// the density's arena (data included), too costly to make per call (ADVI calls per
// iteration). Held with a weak reference, so a destroyed density is never mistaken for a
// new one at the same address.
PointEvaluator& thread_evaluator(const std::shared_ptr<const PointDensity>& density) {
  thread_local std::weak_ptr<const PointDensity> owner;
  thread_local std::unique_ptr<PointEvaluator> evaluator;
  if (owner.lock() != density) {
    evaluator = density->evaluator();
    owner = density;
  }
  return *evaluator;
}

// Rows of theta [d] or [B, d] through a point evaluator: lp [] or [B], gradient like theta.
std::pair<at::Tensor, at::Tensor> evaluate_rows(const std::shared_ptr<const PointDensity>& density,
                                                const at::Tensor& theta, bool jacobian, bool with_gradient) {
  const at::Tensor rows = theta.reshape({-1, theta.size(-1)}).contiguous();
  const int64_t b = rows.size(0);
  const int64_t d = rows.size(1);
  at::Tensor lp = at::empty({b}, at::kDouble);
  at::Tensor gradient = with_gradient ? at::empty({b, d}, at::kDouble) : at::Tensor();
  PointEvaluator& evaluator = thread_evaluator(density);
  evaluator.log_densities(rows.data_ptr<double>(), b, d, lp.data_ptr<double>(),
                          with_gradient ? gradient.data_ptr<double>() : nullptr, jacobian);
  if (theta.dim() == 1) return {lp.reshape({}), with_gradient ? gradient.reshape({d}) : gradient};
  return {lp, gradient};
}

// The point density inside an autograd graph (ADVI differentiates the ELBO through
// log p): forward evaluates value and gradient, backward scales the gradient.
struct PointDensityFunction : torch::autograd::Function<PointDensityFunction> {
  static at::Tensor forward(torch::autograd::AutogradContext* context, const at::Tensor& theta,
                            const std::shared_ptr<const PointDensity>* density, bool jacobian) {
    auto [lp, gradient] = evaluate_rows(*density, theta.detach(), jacobian, true);
    context->save_for_backward({gradient});
    return lp;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* context,
                                                 torch::autograd::variable_list outputs) {
    const at::Tensor gradient = context->get_saved_variables()[0];
    const at::Tensor& upstream = outputs[0];
    const at::Tensor g = gradient.dim() == 1 ? upstream * gradient : upstream.unsqueeze(-1) * gradient;
    return {g, at::Tensor(), at::Tensor()};
  }
};

}  // namespace

at::Tensor UnconstrainedTarget::log_density(const at::Tensor& theta, bool jacobian) const {
  if (uses_point_density(theta)) {
    if (theta.requires_grad() && at::GradMode::is_enabled()) {
      return PointDensityFunction::apply(theta, &point_density_, jacobian);
    }
    return evaluate_rows(point_density_, theta, jacobian, false).first;
  }
  const at::Tensor x = theta.device() == device_ ? theta : theta.to(device_);  // differentiable
  const bool one_point = x.dim() == 1;
  ValidationGuard no_validation(false);
  ArgumentCheckGuard checked(one_point);
  layout_.check_shape(x);
  at::Tensor lp;
  try {
    // Bounds computed from parameters are arguments too (a Uniform's hi below its lo).
    const ConstrainedPoint point = layout_.constrain(x);
    lp = one_point ? log_joint_(point.values) : log_joint_(point.values, x.size(0));
    if (jacobian) lp = lp + point.log_det_jacobian;
  } catch (const ArgumentError&) {
    // Shapes were checked when the model was bound: what fails in the model at a point is
    // a value outside its domain.
    if (!one_point) throw;
    const at::Tensor q = theta.detach().to(at::kCPU, at::kDouble).contiguous();
    torch_rejections_->record(q.data_ptr<double>(), q.numel());
    return at::full({}, -std::numeric_limits<double>::infinity(), theta.options().requires_grad(false));
  }
  return lp.device() == theta.device() ? lp : lp.to(theta.device());
}

ArgumentRejections UnconstrainedTarget::argument_rejections() const {
  ArgumentRejections total = torch_rejections_->read();
  if (point_density_) {
    const ArgumentRejections tape = point_density_->rejections();
    if (total.count == 0) total.first = tape.first;
    total.count += tape.count;
  }
  return total;
}

std::pair<at::Tensor, at::Tensor> UnconstrainedTarget::log_density_and_gradient(
    const at::Tensor& theta, bool jacobian) const {
  if (uses_point_density(theta)) return evaluate_rows(point_density_, theta, jacobian, true);
  at::AutoGradMode enable(true);
  const at::Tensor x = theta.detach().requires_grad_(true);
  const at::Tensor lp = log_density(x, jacobian);
  if (!lp.requires_grad()) return {lp.detach(), at::zeros_like(x).detach()};  // a rejected point
  // Points of a batch are independent, so the gradient of the sum is each point's own.
  const auto gradient = torch::autograd::grad({lp.dim() == 0 ? lp : lp.sum()}, {x}, {}, false, false, true);
  at::Tensor g = gradient[0].defined() ? gradient[0] : at::zeros_like(x);
  return {lp.detach(), g.detach()};
}

}  // namespace variate
