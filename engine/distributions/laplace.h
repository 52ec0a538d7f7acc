#pragma once
/// Laplace(mu, sigma), Stan's double_exponential (location, scale):
/// p(x) = exp(-|x - mu| / sigma) / (2 sigma).

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

class Laplace : public Distribution {
 public:
  /// @throws ArgumentError if sigma is not positive or mu is not finite.
  Laplace(at::Tensor mu, at::Tensor sigma);

  std::string name() const override { return "Laplace"; }
  at::Tensor log_prob(const at::Tensor& value) const override;
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::real(); }

  const at::Tensor& mu() const { return mu_; }
  const at::Tensor& sigma() const { return sigma_; }

 private:
  at::Tensor mu_;
  at::Tensor sigma_;
};

}  // namespace distributions

/// A Laplace random variable named `name`; `sample_shape` iid copies.
RandomVariable Laplace(std::string name, const TensorArg& mu, const TensorArg& sigma,
                       Shape sample_shape = {});

}  // namespace variate
