#pragma once
/// StudentT(nu, mu, sigma), Stan's parameterization (degrees of freedom, location, scale):
/// p(x) = Gamma((nu + 1) / 2) / (Gamma(nu / 2) sqrt(nu pi) sigma)
///        (1 + ((x - mu) / sigma)^2 / nu)^(-(nu + 1) / 2).

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

class StudentT : public Distribution {
 public:
  /// @throws ArgumentError if nu is not positive and finite, mu is not finite or sigma is
  /// not positive.
  StudentT(at::Tensor nu, at::Tensor mu, at::Tensor sigma);

  std::string name() const override { return "StudentT"; }
  at::Tensor log_prob(const at::Tensor& value) const override;
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::real(); }

  const at::Tensor& nu() const { return nu_; }
  const at::Tensor& mu() const { return mu_; }
  const at::Tensor& sigma() const { return sigma_; }

 private:
  at::Tensor nu_;
  at::Tensor mu_;
  at::Tensor sigma_;
};

}  // namespace distributions

/// A StudentT random variable named `name`; `sample_shape` iid copies.
RandomVariable StudentT(std::string name, const TensorArg& nu, const TensorArg& mu,
                        const TensorArg& sigma, Shape sample_shape = {});

}  // namespace variate
