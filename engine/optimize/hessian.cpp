#include "engine/optimize/hessian.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <torch/csrc/autograd/autograd.h>

#include "engine/core/argument_error.h"
#include "engine/core/memory.h"
#include "engine/core/checks.h"
#include "engine/optimize/point_objective.h"

namespace variate {
namespace {

// Row by row: the gradient of each entry of the gradient. Undefined where LibTorch cannot.
// With argument validation on, a compiled model takes its general path rather than the
// fused GLM kernels, whose backward pass is not itself differentiable.
at::Tensor autograd_hessian(const UnconstrainedTarget& target, const at::Tensor& q, bool jacobian) {
  ValidationGuard general_path(true);
  try {
    // UnconstrainedTarget::log_density turns validation off (the fast path): evaluate the
    // joint density directly instead.
    const at::Tensor theta = q.clone().requires_grad_(true);
    const ConstrainedPoint point = target.layout().constrain(theta.to(target.device()));
    at::Tensor lp = target.log_joint()(point.values);
    if (jacobian) lp = lp + point.log_det_jacobian;
    lp = lp.to(at::kCPU);
    const at::Tensor gradient = torch::autograd::grad({lp}, {theta}, {}, true, true)[0];
    const int64_t d = q.size(0);
    at::Tensor hessian = at::empty({d, d}, at::kDouble);
    for (int64_t i = 0; i < d; ++i) {
      const auto row = torch::autograd::grad({gradient[i]}, {theta}, {}, true, false, true)[0];
      hessian[i] = row.defined() ? row.detach() : at::zeros({d}, at::kDouble);
    }
    if (!at::isfinite(hessian).all().item<bool>()) return {};
    return hessian;
  } catch (const c10::Error&) {
    return {};
  } catch (const std::runtime_error&) {  // ArgumentError too: a value validation rejects
    return {};
  }
}

// (g(q + h e_i) - g(q - h e_i)) / 2h, with h = epsilon^(1/3) max(1, |q_i|).
at::Tensor finite_difference_hessian(const UnconstrainedTarget& target, const std::vector<double>& q, bool jacobian) {
  const LogDensityFunction log_density = point_log_density(target, jacobian);
  const auto d = static_cast<int64_t>(q.size());
  at::Tensor hessian = at::empty({d, d}, at::kDouble);
  std::vector<double> point = q, up, down;
  for (int64_t i = 0; i < d; ++i) {
    const double h = std::cbrt(std::numeric_limits<double>::epsilon()) * std::max(1.0, std::abs(q[i]));
    point[i] = q[i] + h;
    log_density(point, up);
    point[i] = q[i] - h;
    log_density(point, down);
    point[i] = q[i];
    for (int64_t j = 0; j < d; ++j) hessian[i][j] = (up[j] - down[j]) / (2 * h);
  }
  return hessian;
}

// Whether H v agrees with the central difference of the exact gradient along a random
// direction v: a custom operation whose backward pass is not itself differentiable (the
// fused kernels) leaves its curvature out of the autograd Hessian without an error.
bool agrees_with_gradient(const UnconstrainedTarget& target, const std::vector<double>& q, bool jacobian,
                          const at::Tensor& hessian) {
  const LogDensityFunction log_density = point_log_density(target, jacobian);
  const auto d = static_cast<int64_t>(q.size());
  // A fixed direction: processes that evaluate one density together must agree on it.
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(20181203);
  const at::Tensor v = at::randn({d}, generator, at::kDouble) / std::sqrt(static_cast<double>(d));
  double q_norm = 0;
  for (const double x : q) q_norm = std::max(q_norm, std::abs(x));
  const double h = std::cbrt(std::numeric_limits<double>::epsilon()) * std::max(1.0, q_norm);
  std::vector<double> up(q), down(q), g_up, g_down;
  for (int64_t i = 0; i < d; ++i) {
    up[i] += h * v[i].item<double>();
    down[i] -= h * v[i].item<double>();
  }
  log_density(up, g_up);
  log_density(down, g_down);
  const at::Tensor difference = (at::tensor(g_up, at::kDouble) - at::tensor(g_down, at::kDouble)) / (2 * h);
  const at::Tensor product = at::matmul(hessian, v);
  const double error = (difference - product).norm().item<double>();
  return error <= 1e-4 * std::max(1.0, difference.norm().item<double>());
}

}  // namespace

HessianResult log_density_hessian(const UnconstrainedTarget& target, const std::vector<double>& q, bool jacobian,
                                  bool autograd) {
  const double d = static_cast<double>(q.size());
  // The Hessian, its symmetrized copy and what factors it (a Laplace approximation's
  // Cholesky): a model of 10^5 parameters would need 240 GB.
  check_memory(3 * 8 * d * d, "the Hessian of " + std::to_string(q.size()) + " parameters",
               "the Laplace approximation and Newton's method need d x d values; use Pathfinder or ADVI instead");
  const at::Tensor point = at::tensor(q, at::kDouble);
  HessianResult result;
  if (autograd) result.hessian = autograd_hessian(target, point, jacobian);
  result.method = "autograd";
  if (result.hessian.defined() && !agrees_with_gradient(target, q, jacobian, result.hessian)) result.hessian = at::Tensor();
  if (!result.hessian.defined()) {
    result.hessian = finite_difference_hessian(target, q, jacobian);
    result.method = "finite differences";
  }
  result.hessian = 0.5 * (result.hessian + result.hessian.t());
  if (!at::isfinite(result.hessian).all().item<bool>()) {
    throw ArgumentError("the Hessian of the log density is not finite at the mode");
  }
  return result;
}

}  // namespace variate
