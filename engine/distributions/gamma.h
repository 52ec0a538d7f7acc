#pragma once
/// Gamma(alpha, beta), Stan's parameterization (shape, RATE):
/// p(x) = beta^alpha x^(alpha - 1) exp(-beta x) / Gamma(alpha), x >= 0.

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

class Gamma : public Distribution {
 public:
  /// @throws ArgumentError if alpha or beta is not positive.
  Gamma(at::Tensor alpha, at::Tensor beta);

  std::string name() const override { return "Gamma"; }
  /// At x = 0: log(beta) when alpha = 1, -inf when alpha > 1, +inf when alpha < 1 (the
  /// density's limits); -inf for x < 0.
  at::Tensor log_prob(const at::Tensor& value) const override;
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::positive(); }

  const at::Tensor& alpha() const { return alpha_; }
  const at::Tensor& beta() const { return beta_; }

 private:
  at::Tensor alpha_;
  at::Tensor beta_;
};

}  // namespace distributions

/// A Gamma random variable named `name` with shape `alpha` and rate `beta`;
/// `sample_shape` iid copies.
RandomVariable Gamma(std::string name, const TensorArg& alpha, const TensorArg& beta,
                     Shape sample_shape = {});

}  // namespace variate
