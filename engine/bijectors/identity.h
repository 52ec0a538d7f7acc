#pragma once
/// The identity on the reals: unconstrained and constrained values coincide.

#include "engine/bijectors/bijector.h"

namespace variate::bijectors {

class Identity : public Bijector {
 public:
  std::string name() const override { return "identity"; }
  /// Returns `y` itself (no copy).
  at::Tensor forward(const at::Tensor& y) const override;
  /// Returns `x` itself (no copy).
  at::Tensor inverse(const at::Tensor& x) const override;
  /// Zeros shaped like `y`.
  at::Tensor forward_log_det_jacobian(const at::Tensor& y) const override;
};

}  // namespace variate::bijectors
