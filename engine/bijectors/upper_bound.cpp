#include "engine/bijectors/upper_bound.h"

#include <ATen/ATen.h>

#include "engine/bijectors/describe_bound.h"
#include "engine/core/checks.h"

namespace variate::bijectors {

UpperBound::UpperBound(at::Tensor upper)
    : upper_(upper.is_floating_point() ? std::move(upper) : upper.to(at::kDouble)) {
  check_finite("UpperBound", "upper", upper_);
}

std::string UpperBound::name() const { return "upper_bound(" + describe_bound(upper_) + ")"; }

at::Tensor UpperBound::forward(const at::Tensor& y) const {
  return upper_.to(y.device()) - at::exp(y);
}

at::Tensor UpperBound::inverse(const at::Tensor& x) const {
  const at::Tensor upper = upper_.to(x.device());
  if (validation_enabled()) {
    const auto both = at::broadcast_tensors({x, upper});
    const std::string requirement = "less than the upper bound " + describe_bound(upper_);
    throw_if_any("UpperBound", "x", both[0], ~(both[0] < both[1]), requirement.c_str());
  }
  return at::log(upper - x);
}

at::Tensor UpperBound::forward_log_det_jacobian(const at::Tensor& y) const {
  return y.clone();  // a copy, so that callers may accumulate into it in place
}

}  // namespace variate::bijectors
