#pragma once
/// InvGamma(alpha, beta), Stan's inv_gamma (shape, SCALE): 1 / X for X ~ Gamma(alpha,
/// rate beta), p(x) = beta^alpha x^(-alpha - 1) exp(-beta / x) / Gamma(alpha), x > 0.

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

class InvGamma : public Distribution {
 public:
  /// @throws ArgumentError if alpha or beta is not positive.
  InvGamma(at::Tensor alpha, at::Tensor beta);

  std::string name() const override { return "InvGamma"; }
  /// -inf for x <= 0 (the density tends to 0 at x = 0).
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

/// An InvGamma random variable named `name` with shape `alpha` and scale `beta`;
/// `sample_shape` iid copies.
RandomVariable InvGamma(std::string name, const TensorArg& alpha, const TensorArg& beta,
                        Shape sample_shape = {});

}  // namespace variate
