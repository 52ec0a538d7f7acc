#pragma once
/// The K-simplex from R^(K-1) by Stan's stick-breaking transform (Stan Reference Manual,
/// "Constraint transforms", unit simplex): for k = 1..K-1, z_k = inv_logit(y_k - log(K-k)),
/// x_k = stick_k z_k with stick_k = 1 - sum_{j<k} x_j, and x_K = stick_K; y = 0 maps to the
/// centre (1/K, ..., 1/K). Acts on the last dimension; leading dimensions are batch.

#include "engine/bijectors/bijector.h"

namespace variate::bijectors {

class Simplex : public Bijector {
 public:
  std::string name() const override { return "simplex"; }
  /// [..., K-1] -> [..., K]. @throws ArgumentError if `y` is a scalar.
  at::Tensor forward(const at::Tensor& y) const override;
  /// [..., K] -> [..., K-1]. @throws ArgumentError if `x` is a scalar or has K = 0, or
  /// (while validation is enabled) is not a simplex.
  at::Tensor inverse(const at::Tensor& x) const override;
  /// sum_k log(stick_k) + log z_k + log(1 - z_k).
  at::Tensor forward_log_det_jacobian(const at::Tensor& y) const override;

  int64_t unconstrained_event_rank() const override { return 1; }
  /// [..., K] -> [..., K-1]. @throws ArgumentError if `constrained` is a scalar or K = 0.
  Shape unconstrained_shape(const Shape& constrained) const override;
};

}  // namespace variate::bijectors
