#pragma once
/// x = upper - exp(y), Stan's upper-bound transform (Stan Reference Manual, "Constraint
/// transforms", upper bounded scalar); log|dx/dy| = y.

#include "engine/bijectors/bijector.h"

namespace variate::bijectors {

class UpperBound : public Bijector {
 public:
  /// `upper` broadcasts against the values; integer bounds become float64.
  /// @throws ArgumentError if `upper` is not finite.
  explicit UpperBound(at::Tensor upper);

  /// "upper_bound(0)".
  std::string name() const override;
  at::Tensor forward(const at::Tensor& y) const override;
  /// @throws ArgumentError if some x is not below the bound (while validation is enabled).
  at::Tensor inverse(const at::Tensor& x) const override;
  at::Tensor forward_log_det_jacobian(const at::Tensor& y) const override;

  const at::Tensor& upper() const { return upper_; }

 private:
  at::Tensor upper_;
};

}  // namespace variate::bijectors
