#pragma once
/// Increasing vectors: x1 = y1, xk = x(k-1) + exp(yk), Stan's ordered transform (Stan
/// Reference Manual, "Constraint transforms", ordered vector); log|det J| = sum_{k>=2} yk.
/// Acts on the last dimension; leading dimensions are batch.

#include "engine/bijectors/bijector.h"

namespace variate::bijectors {

class Ordered : public Bijector {
 public:
  std::string name() const override { return "ordered"; }
  /// @throws ArgumentError if `y` is a scalar.
  at::Tensor forward(const at::Tensor& y) const override;
  /// @throws ArgumentError if `x` is a scalar, or (while validation is enabled) not finite
  /// or not strictly increasing.
  at::Tensor inverse(const at::Tensor& x) const override;
  at::Tensor forward_log_det_jacobian(const at::Tensor& y) const override;

  int64_t unconstrained_event_rank() const override { return 1; }
  /// @throws ArgumentError if `constrained` has no dimensions.
  Shape unconstrained_shape(const Shape& constrained) const override;
};

}  // namespace variate::bijectors
