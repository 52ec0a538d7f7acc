#include "engine/bijectors/lower_bound.h"

#include <ATen/ATen.h>

#include "engine/bijectors/describe_bound.h"
#include "engine/core/checks.h"

namespace variate::bijectors {

LowerBound::LowerBound(at::Tensor lower)
    : lower_(lower.is_floating_point() ? std::move(lower) : lower.to(at::kDouble)) {
  check_finite("LowerBound", "lower", lower_);
}

std::string LowerBound::name() const { return "lower_bound(" + describe_bound(lower_) + ")"; }

at::Tensor LowerBound::forward(const at::Tensor& y) const {
  return lower_.to(y.device()) + at::exp(y);
}

at::Tensor LowerBound::inverse(const at::Tensor& x) const {
  const at::Tensor lower = lower_.to(x.device());
  if (validation_enabled()) {
    const auto both = at::broadcast_tensors({x, lower});
    const std::string requirement = "greater than the lower bound " + describe_bound(lower_);
    throw_if_any("LowerBound", "x", both[0], ~(both[0] > both[1]), requirement.c_str());
  }
  return at::log(x - lower);
}

at::Tensor LowerBound::forward_log_det_jacobian(const at::Tensor& y) const {
  return y.clone();  // a copy, so that callers may accumulate into it in place
}

}  // namespace variate::bijectors
