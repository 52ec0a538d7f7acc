#include "engine/bijectors/positive_ordered.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"

namespace variate::bijectors {

at::Tensor PositiveOrdered::forward(const at::Tensor& y) const {
  check_min_rank("PositiveOrdered", "y", y, 1);
  return at::exp(y).cumsum(-1);
}

at::Tensor PositiveOrdered::inverse(const at::Tensor& x) const {
  check_min_rank("PositiveOrdered", "x", x, 1);
  const at::Tensor steps = x.slice(-1, 1) - x.slice(-1, 0, -1);
  if (validation_enabled()) {
    check_positive("PositiveOrdered", "x", x);
    check_finite("PositiveOrdered", "x", x);
    throw_if_any("PositiveOrdered", "x", steps, ~(steps > 0),
                 "strictly increasing (positive steps between consecutive entries)");
  }
  return at::log(at::cat({x.slice(-1, 0, 1), steps}, -1));
}

at::Tensor PositiveOrdered::forward_log_det_jacobian(const at::Tensor& y) const {
  check_min_rank("PositiveOrdered", "y", y, 1);
  return y.sum(-1);
}

Shape PositiveOrdered::unconstrained_shape(const Shape& constrained) const {
  if (constrained.empty()) {
    throw ArgumentError(
        "PositiveOrdered: a constrained shape must have at least 1 dimension, got []");
  }
  return constrained;
}

}  // namespace variate::bijectors
