#pragma once
/// Normal(mu, sigma), Stan's parameterization (location, standard deviation).

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"
#include "engine/distributions/cumulative.h"

namespace variate {
namespace distributions {

class Normal : public Distribution, public Cumulative {
 public:
  /// @throws ArgumentError if sigma is not positive or mu is not finite.
  Normal(at::Tensor mu, at::Tensor sigma);

  std::string name() const override { return "Normal"; }
  at::Tensor log_prob(const at::Tensor& value) const override;
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::real(); }
  at::Tensor log_cdf(const at::Tensor& x) const override;
  at::Tensor log_ccdf(const at::Tensor& x) const override;

  const at::Tensor& mu() const { return mu_; }
  const at::Tensor& sigma() const { return sigma_; }

 private:
  at::Tensor mu_;
  at::Tensor sigma_;
};

}  // namespace distributions

/// A Normal random variable named `name`; `sample_shape` iid copies.
RandomVariable Normal(std::string name, const TensorArg& mu, const TensorArg& sigma,
                      Shape sample_shape = {});

}  // namespace variate
