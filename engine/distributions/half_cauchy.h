#pragma once
/// HalfCauchy(sigma): Cauchy(0, sigma) folded onto x >= 0,
/// p(x) = 2 / (pi sigma (1 + (x / sigma)^2)). It has no mean or variance.

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

class HalfCauchy : public Distribution {
 public:
  /// @throws ArgumentError if sigma is not positive.
  explicit HalfCauchy(at::Tensor sigma);

  std::string name() const override { return "HalfCauchy"; }
  /// Finite at x = 0; -inf for x < 0.
  at::Tensor log_prob(const at::Tensor& value) const override;
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::positive(); }

  const at::Tensor& sigma() const { return sigma_; }

 private:
  at::Tensor sigma_;
};

}  // namespace distributions

/// A HalfCauchy random variable named `name`; `sample_shape` iid copies.
RandomVariable HalfCauchy(std::string name, const TensorArg& sigma, Shape sample_shape = {});

}  // namespace variate
