#include "engine/bijectors/ordered.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"

namespace variate::bijectors {

at::Tensor Ordered::forward(const at::Tensor& y) const {
  check_min_rank("Ordered", "y", y, 1);
  // slice (not narrow) so that an empty last dimension stays valid.
  return at::cat({y.slice(-1, 0, 1), at::exp(y.slice(-1, 1))}, -1).cumsum(-1);
}

at::Tensor Ordered::inverse(const at::Tensor& x) const {
  check_min_rank("Ordered", "x", x, 1);
  const at::Tensor steps = x.slice(-1, 1) - x.slice(-1, 0, -1);
  if (validation_enabled()) {
    check_finite("Ordered", "x", x);
    throw_if_any("Ordered", "x", steps, ~(steps > 0),
                 "strictly increasing (positive steps between consecutive entries)");
  }
  return at::cat({x.slice(-1, 0, 1), at::log(steps)}, -1);
}

at::Tensor Ordered::forward_log_det_jacobian(const at::Tensor& y) const {
  check_min_rank("Ordered", "y", y, 1);
  return y.slice(-1, 1).sum(-1);
}

Shape Ordered::unconstrained_shape(const Shape& constrained) const {
  if (constrained.empty()) {
    throw ArgumentError("Ordered: a constrained shape must have at least 1 dimension, got []");
  }
  return constrained;
}

}  // namespace variate::bijectors
