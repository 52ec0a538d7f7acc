#include "variate/target/unconstrained_target.h"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/autograd.h>

#include "variate/core/checks.h"

namespace variate {

UnconstrainedTarget::UnconstrainedTarget(LogJoint log_joint, ParameterLayout layout)
    : log_joint_(std::move(log_joint)), layout_(std::move(layout)) {}

at::Tensor UnconstrainedTarget::log_density(const at::Tensor& theta, bool jacobian) const {
  ValidationGuard no_validation(false);
  ConstrainedPoint point = layout_.constrain(theta);
  at::Tensor lp = theta.dim() == 2 ? log_joint_(point.values, theta.size(0))
                                   : log_joint_(point.values);
  return jacobian ? lp + point.log_det_jacobian : lp;
}

std::pair<at::Tensor, at::Tensor> UnconstrainedTarget::log_density_and_gradient(
    const at::Tensor& theta, bool jacobian) const {
  at::AutoGradMode enable(true);
  const at::Tensor x = theta.detach().requires_grad_(true);
  const at::Tensor lp = log_density(x, jacobian);
  // Points of a batch are independent, so the gradient of the sum is each point's own.
  const auto gradient = torch::autograd::grad({lp.dim() == 0 ? lp : lp.sum()}, {x}, {}, false, false, true);
  at::Tensor g = gradient[0].defined() ? gradient[0] : at::zeros_like(x);
  return {lp.detach(), g.detach()};
}

}  // namespace variate
