#pragma once
/// The Hessian of a model's log density on the unconstrained scale: by autograd (a second
/// backward pass per row through LibTorch), or, where the density's operations have no
/// second derivative in LibTorch (the fused kernels), by central differences of the exact
/// gradient, as Stan computes it for `laplace`.

#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

#include "variate/target/unconstrained_target.h"

namespace variate {

struct HessianResult {
  at::Tensor hessian;  ///< [d, d], symmetric, float64
  std::string method;  ///< "autograd" or "finite differences"
};

/// @throws ArgumentError if the Hessian is not finite at q.
HessianResult log_density_hessian(const UnconstrainedTarget& target, const std::vector<double>& q, bool jacobian);

}  // namespace variate
