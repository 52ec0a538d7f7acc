#pragma once
/// A univariate family whose cumulative distribution function the engine knows: what a
/// truncation (`y ~ Normal(mu, s) T[lo, hi]`, Truncated) needs to normalize the density.

#include <ATen/core/Tensor.h>

namespace variate::distributions {

class Cumulative {
 public:
  virtual ~Cumulative() = default;
  /// log P(X <= x), broadcast against the batch shape.
  virtual at::Tensor log_cdf(const at::Tensor& x) const = 0;
  /// log P(X > x).
  virtual at::Tensor log_ccdf(const at::Tensor& x) const = 0;
};

}  // namespace variate::distributions
