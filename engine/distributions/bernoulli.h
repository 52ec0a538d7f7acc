#pragma once
/// Bernoulli(theta), Stan's parameterization (the probability of a 1), or
/// Bernoulli(logits(eta)) with theta = inv_logit(eta) (Stan's bernoulli_logit).

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

/// Keeps whichever parameterization it was given and evaluates log_prob from it, so
/// logits far from 0 lose no precision to a round trip through probabilities.
class Bernoulli : public Distribution {
 public:
  /// @throws ArgumentError if theta is not in [0, 1].
  explicit Bernoulli(at::Tensor theta);
  /// @throws ArgumentError if a logit is not finite.
  explicit Bernoulli(const Logits& logits);

  std::string name() const override { return "Bernoulli"; }
  /// log theta at 1, log(1 - theta) at 0, -inf at any other value.
  at::Tensor log_prob(const at::Tensor& value) const override;
  /// Draws of 0 and 1 in the parameter's floating dtype.
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::boolean(); }

  bool has_logits() const { return logits_.defined(); }
  /// The probability; computed from the logits when those were given.
  at::Tensor theta() const;
  /// The log-odds; computed from theta when that was given.
  at::Tensor logits() const;

 private:
  at::Tensor theta_;   // defined when constructed from probabilities
  at::Tensor logits_;  // defined when constructed from logits
};

}  // namespace distributions

/// A Bernoulli random variable named `name` with success probability `theta`.
RandomVariable Bernoulli(std::string name, const TensorArg& theta, Shape sample_shape = {});
/// A Bernoulli random variable with log-odds `logits`: `Bernoulli("y", logits(eta))`.
RandomVariable Bernoulli(std::string name, const Logits& logits, Shape sample_shape = {});

}  // namespace variate
