#pragma once
/// x = lower + exp(y), Stan's lower-bound transform (Stan Reference Manual, "Constraint
/// transforms", lower bounded scalar); log|dx/dy| = y.

#include "engine/bijectors/bijector.h"

namespace variate::bijectors {

class LowerBound : public Bijector {
 public:
  /// `lower` broadcasts against the values; integer bounds become float64.
  /// @throws ArgumentError if `lower` is not finite.
  explicit LowerBound(at::Tensor lower);

  /// "lower_bound(0)".
  std::string name() const override;
  at::Tensor forward(const at::Tensor& y) const override;
  /// @throws ArgumentError if some x is not above the bound (while validation is enabled).
  at::Tensor inverse(const at::Tensor& x) const override;
  at::Tensor forward_log_det_jacobian(const at::Tensor& y) const override;

  const at::Tensor& lower() const { return lower_; }

 private:
  at::Tensor lower_;
};

}  // namespace variate::bijectors
