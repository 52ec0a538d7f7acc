#pragma once
/// Binomial(N, theta), Stan's parameterization (trials, success probability), or
/// Binomial(N, logits(eta)) with theta = inv_logit(eta) (Stan's binomial_logit).

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

/// Keeps whichever parameterization it was given and evaluates log_prob from it.
class Binomial : public Distribution {
 public:
  /// @throws ArgumentError if N is not a finite non-negative integer or theta is not in
  /// [0, 1].
  Binomial(at::Tensor N, at::Tensor theta);
  /// @throws ArgumentError if N is not a finite non-negative integer or a logit is not
  /// finite.
  Binomial(at::Tensor N, const Logits& logits);

  std::string name() const override { return "Binomial"; }
  /// log C(N, k) + k log theta + (N - k) log(1 - theta); -inf unless k is an integer in
  /// [0, N].
  at::Tensor log_prob(const at::Tensor& value) const override;
  /// Counts in the parameters' floating dtype.
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override;

  /// The number of trials, in the parameters' floating dtype.
  const at::Tensor& N() const { return N_; }
  bool has_logits() const { return logits_.defined(); }
  /// The success probability; computed from the logits when those were given.
  at::Tensor theta() const;
  /// The log-odds; computed from theta when that was given.
  at::Tensor logits() const;

 private:
  at::Tensor N_;
  at::Tensor theta_;   // defined when constructed from probabilities
  at::Tensor logits_;  // defined when constructed from logits
};

}  // namespace distributions

/// A Binomial random variable named `name`: successes in `N` trials of probability `theta`.
RandomVariable Binomial(std::string name, const TensorArg& N, const TensorArg& theta,
                        Shape sample_shape = {});
/// A Binomial random variable with log-odds `logits`: `Binomial("k", N, logits(eta))`.
RandomVariable Binomial(std::string name, const TensorArg& N, const Logits& logits,
                        Shape sample_shape = {});

}  // namespace variate
