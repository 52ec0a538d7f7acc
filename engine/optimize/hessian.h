#pragma once
/// The Hessian of a model's log density on the unconstrained scale: by autograd (a second
/// backward pass per row through LibTorch, with validation on so that compiled models take
/// their general path instead of the fused kernels), checked against a central difference
/// of the gradient along a random direction; where it fails the check (an operation with
/// no second derivative in LibTorch), by central differences of the exact gradient, as
/// Stan computes it for `laplace`. Differences lose the flat directions of badly
/// conditioned posteriors (their error is relative to the largest curvature).

#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

#include "engine/target/unconstrained_target.h"

namespace variate {

struct HessianResult {
  at::Tensor hessian;  ///< [d, d], symmetric, float64
  std::string method;  ///< "autograd" or "finite differences"
};

/// `autograd` false: differences only. Processes that evaluate one density together (a
/// sharded target) must: each one's LibTorch graph holds its own rows only, and the
/// differences of the shared gradient give the same bits on any number of processes.
/// @throws ArgumentError if the Hessian is not finite at q.
HessianResult log_density_hessian(const UnconstrainedTarget& target, const std::vector<double>& q, bool jacobian,
                                  bool autograd = true);

}  // namespace variate
