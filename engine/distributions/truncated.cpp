#include "engine/distributions/truncated.h"

#include <ATen/ATen.h>

#include "engine/core/argument_error.h"
#include "engine/distributions/parameters.h"

namespace variate::distributions {
namespace {

// log(exp(a) - exp(b)) for a >= b, without forming exp(a).
at::Tensor log_diff_exp(const at::Tensor& a, const at::Tensor& b) { return a + at::log(-at::expm1(b - a)); }

constexpr int kRejectionRounds = 1000;

}  // namespace

Truncated::Truncated(DistributionPtr base, at::Tensor lo, at::Tensor hi)
    : base_(std::move(base)), cumulative_(dynamic_cast<const Cumulative*>(base_.get())), lo_(lo), hi_(hi) {
  if (!cumulative_ || !base_->event_shape().empty()) {
    throw ArgumentError("Truncated: argument 'base' must be a univariate family with a CDF, got " + base_->name());
  }
  if (!lo_.defined() && !hi_.defined()) throw ArgumentError("Truncated: give at least one bound");
  Shape batch = base_->batch_shape();
  for (const auto* bound : {&lo_, &hi_}) {
    if (!bound->defined()) continue;
    try {
      batch = broadcast_shapes(batch, Shape(bound->sizes().begin(), bound->sizes().end()));
    } catch (const ArgumentError&) {
      throw ArgumentError("Truncated: a bound of shape " + to_string(bound->sizes()) +
                          " does not broadcast with the parameters of " + base_->name() + ", of shape " +
                          to_string(base_->batch_shape()));
    }
  }
  set_shapes(batch);
}

at::Tensor Truncated::log_mass() const {
  if (lo_.defined() && hi_.defined()) return log_diff_exp(cumulative_->log_cdf(hi_), cumulative_->log_cdf(lo_));
  if (lo_.defined()) return cumulative_->log_ccdf(lo_);
  return cumulative_->log_cdf(hi_);
}

at::Tensor Truncated::contains(const at::Tensor& value) const {
  at::Tensor inside = at::ones_like(value, value.options().dtype(at::kBool));
  if (lo_.defined()) inside = inside & (value >= lo_);
  if (hi_.defined()) inside = inside & (value <= hi_);
  return inside;
}

at::Tensor Truncated::log_prob(const at::Tensor& value) const {
  return mask_outside_support(base_->log_prob(value) - log_mass(), contains(value));
}

at::Tensor Truncated::sample(const Shape& sample_shape, at::Generator generator) const {
  at::Tensor result = base_->sample(sample_shape, generator).expand(extended_shape(sample_shape)).clone();
  const auto outside = [&](const at::Tensor& x) {
    at::Tensor out = at::zeros_like(x, x.options().dtype(at::kBool));
    if (lo_.defined()) out = out | (x < lo_);
    if (hi_.defined()) out = out | (x > hi_);
    return out;
  };
  for (int round = 0; round < kRejectionRounds; ++round) {
    const at::Tensor rejected = outside(result);
    if (!rejected.any().item<bool>()) return result;
    result = at::where(rejected, base_->sample(sample_shape, generator).expand(result.sizes()), result);
  }
  throw ArgumentError("Truncated: the interval holds too little of " + base_->name() +
                      "'s mass to draw from it by rejection");
}

Support Truncated::support() const {
  const Support base = base_->support();
  at::Tensor lo = lo_;
  if (!lo.defined() && base.kind() == Support::Kind::LowerBounded) lo = base.lower();
  if (lo.defined() && hi_.defined()) return Support::interval(lo, hi_);
  if (lo.defined()) return Support::lower_bounded(lo);
  return Support::upper_bounded(hi_);
}

}  // namespace variate::distributions
