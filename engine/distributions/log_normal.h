#pragma once
/// LogNormal(mu, sigma), Stan's lognormal: log x ~ Normal(mu, sigma),
/// p(x) = N(log x | mu, sigma) / x, x > 0.

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

class LogNormal : public Distribution {
 public:
  /// @throws ArgumentError if sigma is not positive or mu is not finite.
  LogNormal(at::Tensor mu, at::Tensor sigma);

  std::string name() const override { return "LogNormal"; }
  /// -inf for x <= 0 (the density tends to 0 at x = 0).
  at::Tensor log_prob(const at::Tensor& value) const override;
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::positive(); }

  const at::Tensor& mu() const { return mu_; }
  const at::Tensor& sigma() const { return sigma_; }

 private:
  at::Tensor mu_;
  at::Tensor sigma_;
};

}  // namespace distributions

/// A LogNormal random variable named `name`; `sample_shape` iid copies.
RandomVariable LogNormal(std::string name, const TensorArg& mu, const TensorArg& sigma,
                         Shape sample_shape = {});

}  // namespace variate
