#pragma once
/// x = lower + (upper - lower) inv_logit(y), Stan's lower- and upper-bounded transform
/// (Stan Reference Manual, "Constraint transforms", lower and upper bounded scalar);
/// log|dx/dy| = log(upper - lower) + log inv_logit(y) + log(1 - inv_logit(y)).

#include "engine/bijectors/bijector.h"

namespace variate::bijectors {

class Interval : public Bijector {
 public:
  /// Bounds broadcast against each other and the values; integer bounds become float64.
  /// @throws ArgumentError if a bound is not finite or lower >= upper.
  Interval(at::Tensor lower, at::Tensor upper);

  /// "interval(0, 1)".
  std::string name() const override;
  at::Tensor forward(const at::Tensor& y) const override;
  /// @throws ArgumentError if some x is outside (lower, upper) (while validation is enabled).
  at::Tensor inverse(const at::Tensor& x) const override;
  at::Tensor forward_log_det_jacobian(const at::Tensor& y) const override;

  const at::Tensor& lower() const { return lower_; }
  const at::Tensor& upper() const { return upper_; }

 private:
  at::Tensor lower_;
  at::Tensor upper_;
};

}  // namespace variate::bijectors
