#pragma once
/// Categorical(theta), Stan's parameterization: theta is a simplex over its last
/// dimension and values are the 1-based category numbers 1..K. Categorical(logits(eta))
/// takes unnormalized log probabilities instead (Stan's categorical_logit).

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

/// batch_shape is the parameter's shape without its last dimension; one draw is a scalar
/// category number. Keeps whichever parameterization it was given.
class Categorical : public Distribution {
 public:
  /// @throws ArgumentError if theta is not a simplex over its last dimension.
  explicit Categorical(at::Tensor theta);
  /// @throws ArgumentError if the logits are not at least 1-D or not finite.
  explicit Categorical(const Logits& logits);

  std::string name() const override { return "Categorical"; }
  /// log theta[k] (with 1-based k); -inf unless k is an integer in 1..K.
  at::Tensor log_prob(const at::Tensor& value) const override;
  /// Category numbers 1..K in the parameter's floating dtype.
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override;

  /// The number of categories K.
  int64_t num_categories() const;
  bool has_logits() const { return logits_.defined(); }
  /// The probabilities; the softmax of the logits when those were given.
  at::Tensor theta() const;
  /// Log probabilities when theta was given (normalized), else the logits as given.
  at::Tensor logits() const;

 private:
  at::Tensor theta_;   // defined when constructed from probabilities
  at::Tensor logits_;  // defined when constructed from logits
};

}  // namespace distributions

/// A Categorical random variable named `name` over 1..K with probabilities `theta`.
RandomVariable Categorical(std::string name, const TensorArg& theta, Shape sample_shape = {});
/// A Categorical random variable with logits: `Categorical("z", logits(eta))`.
RandomVariable Categorical(std::string name, const Logits& logits, Shape sample_shape = {});

}  // namespace variate
