#include "engine/bijectors/interval.h"

#include <ATen/ATen.h>

#include "engine/bijectors/describe_bound.h"
#include "engine/core/checks.h"

namespace variate::bijectors {
namespace {

at::Tensor floating(at::Tensor bound) {
  return bound.is_floating_point() ? std::move(bound) : bound.to(at::kDouble);
}

}  // namespace

Interval::Interval(at::Tensor lower, at::Tensor upper)
    : lower_(floating(std::move(lower))), upper_(floating(std::move(upper))) {
  check_finite("Interval", "lower", lower_);
  check_finite("Interval", "upper", upper_);
  check_less("Interval", "lower", lower_, "upper", upper_);
}

std::string Interval::name() const {
  return "interval(" + describe_bound(lower_) + ", " + describe_bound(upper_) + ")";
}

at::Tensor Interval::forward(const at::Tensor& y) const {
  const at::Tensor lower = lower_.to(y.device());
  const at::Tensor upper = upper_.to(y.device());
  // Measure from the nearer bound with s = inv_logit(-|y|) <= 1/2: for large y,
  // lower + diff * inv_logit(y) would hold 1 - inv_logit(y) only to within rounding, and
  // autograd's derivative s (1 - s) of it would be wrong in most digits. t is -|y| with
  // derivative +-1 even at 0 (abs has derivative 0 there).
  const at::Tensor positive = y > 0;
  const at::Tensor t = at::where(positive, -y, y);
  const at::Tensor step = (upper - lower) * at::sigmoid(t);
  return at::where(positive, upper - step, lower + step);
}

at::Tensor Interval::inverse(const at::Tensor& x) const {
  const at::Tensor lower = lower_.to(x.device());
  const at::Tensor upper = upper_.to(x.device());
  if (validation_enabled()) {
    const auto all = at::broadcast_tensors({x, lower, upper});
    const std::string requirement = "in the open interval (" + describe_bound(lower_) + ", " +
                                    describe_bound(upper_) + ")";
    throw_if_any("Interval", "x", all[0], ~((all[0] > all[1]) & (all[0] < all[2])),
                 requirement.c_str());
  }
  // logit(u) with u = (x - lower) / (upper - lower), as log(u) - log(1 - u) where
  // 1 - u is taken from upper - x, which is exact near the upper bound (no 1 - u rounding).
  return at::log(x - lower) - at::log(upper - x);
}

at::Tensor Interval::forward_log_det_jacobian(const at::Tensor& y) const {
  // log_sigmoid(y) = -softplus(-y), evaluated without overflow or truncation.
  return at::log(upper_.to(y.device()) - lower_.to(y.device())) + at::log_sigmoid(y) +
         at::log_sigmoid(-y);
}

}  // namespace variate::bijectors
