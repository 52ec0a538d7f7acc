#pragma once
/// A univariate family restricted to [lo, hi], as Stan's `T[lo, hi]`: its density divided
/// by the mass it puts on the interval, -inf outside. Either bound may be absent.
///   Truncated(std::make_shared<Normal>(mu, sigma), lo, {})   // y ~ Normal(mu, sigma) T[lo, ]

#include "engine/core/distribution.h"
#include "engine/core/random_variable.h"
#include "engine/distributions/cumulative.h"

namespace variate::distributions {

class Truncated : public Distribution {
 public:
  /// An undefined tensor leaves that side open.
  /// @throws ArgumentError if `base` is not univariate with a known CDF (Cumulative), has
  /// no bound, or a bound does not broadcast with its parameters.
  Truncated(DistributionPtr base, at::Tensor lo, at::Tensor hi);

  std::string name() const override { return base_->name(); }
  at::Tensor log_prob(const at::Tensor& value) const override;
  /// By rejection from the base family.
  /// @throws ArgumentError if the interval holds too little mass to find draws.
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  /// The interval; a lower-bounded family truncated above keeps its lower bound (an
  /// Exponential T[, hi] lives on (0, hi)).
  Support support() const override;

  /// Whether each value lies in the closed interval [lo, hi] (data may sit on a bound, as
  /// in Stan; the support, open, is what a latent variable's transform maps onto).
  at::Tensor contains(const at::Tensor& value) const;

  /// log P(lo <= X <= hi) under the base family.
  at::Tensor log_mass() const;

 private:
  DistributionPtr base_;
  const Cumulative* cumulative_;
  at::Tensor lo_;
  at::Tensor hi_;
};

}  // namespace variate::distributions
