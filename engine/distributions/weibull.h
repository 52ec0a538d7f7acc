#pragma once
/// Weibull(alpha, sigma), Stan's weibull (shape, scale):
/// p(x) = (alpha / sigma) (x / sigma)^(alpha - 1) exp(-(x / sigma)^alpha), x >= 0.

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

class Weibull : public Distribution {
 public:
  /// @throws ArgumentError if alpha or sigma is not positive.
  Weibull(at::Tensor alpha, at::Tensor sigma);

  std::string name() const override { return "Weibull"; }
  /// At x = 0: -log(sigma) when alpha = 1, -inf when alpha > 1, +inf when alpha < 1 (the
  /// density's limits); -inf for x < 0.
  at::Tensor log_prob(const at::Tensor& value) const override;
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::positive(); }

  const at::Tensor& alpha() const { return alpha_; }
  const at::Tensor& sigma() const { return sigma_; }

 private:
  at::Tensor alpha_;
  at::Tensor sigma_;
};

}  // namespace distributions

/// A Weibull random variable named `name` with shape `alpha` and scale `sigma`;
/// `sample_shape` iid copies.
RandomVariable Weibull(std::string name, const TensorArg& alpha, const TensorArg& sigma,
                       Shape sample_shape = {});

}  // namespace variate
