#pragma once
/// Uniform(alpha, beta), Stan's parameterization: alpha is the lower bound, beta the upper.

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

class Uniform : public Distribution {
 public:
  /// @throws ArgumentError if a bound is not finite or alpha is not less than beta.
  Uniform(at::Tensor alpha, at::Tensor beta);

  std::string name() const override { return "Uniform"; }
  /// -log(beta - alpha) on [alpha, beta] (closed, as in Stan), -inf elsewhere.
  at::Tensor log_prob(const at::Tensor& value) const override;
  /// Reparameterized: alpha + (beta - alpha) U with U ~ Uniform(0, 1).
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::interval(alpha_, beta_); }

  const at::Tensor& alpha() const { return alpha_; }
  const at::Tensor& beta() const { return beta_; }

 private:
  at::Tensor alpha_;
  at::Tensor beta_;
};

}  // namespace distributions

/// A Uniform random variable on [alpha, beta] named `name`; `sample_shape` iid copies.
RandomVariable Uniform(std::string name, const TensorArg& alpha, const TensorArg& beta,
                       Shape sample_shape = {});

}  // namespace variate
