#pragma once
/// Cholesky factors of correlation matrices from R^(K(K-1)/2), Stan's
/// cholesky_corr_constrain (Stan Reference Manual, "Constraint transforms", Cholesky factors
/// of correlation matrices; Stan Math prim/constraint/cholesky_corr_constrain.hpp):
/// z = tanh(y) fills the strictly lower triangle row by row, each entry scaled by the
/// length still left in its row, L(i,j) = z_ij sqrt(1 - sum_{l<j} L(i,l)^2), and the
/// diagonal takes what remains, so every row has unit length.
///
/// y's order is row by row: (1,0), (2,0), (2,1), (3,0), ... (0-based (row, column)).
/// Leading dimensions are batch: y [..., K(K-1)/2] <-> L [..., K, K].

#include "engine/bijectors/bijector.h"

namespace variate::bijectors {

class CholeskyCorr : public Bijector {
 public:
  std::string name() const override { return "cholesky_corr"; }
  /// @throws ArgumentError if `y` is a scalar or its last dimension is not K(K-1)/2.
  at::Tensor forward(const at::Tensor& y) const override;
  /// @throws ArgumentError if `x` is not square lower triangular with a positive diagonal,
  /// or (while validation is enabled) has a row whose length is not 1.
  at::Tensor inverse(const at::Tensor& x) const override;
  /// sum log(1 - z^2) + 1/2 sum_{i, 1<=j<i} log(1 - sum_{l<j} L(i,l)^2).
  at::Tensor forward_log_det_jacobian(const at::Tensor& y) const override;

  int64_t unconstrained_event_rank() const override { return 1; }
  /// [..., K, K] -> [..., K(K-1)/2]. @throws ArgumentError unless K x K with K >= 1.
  Shape unconstrained_shape(const Shape& constrained) const override;
};

}  // namespace variate::bijectors
