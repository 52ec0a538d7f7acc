#pragma once
/// HalfNormal(sigma): Normal(0, sigma) folded onto x >= 0, density 2 N(x | 0, sigma)
/// (Stan's normal(0, sigma) with a lower bound of 0).

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

class HalfNormal : public Distribution {
 public:
  /// @throws ArgumentError if sigma is not positive.
  explicit HalfNormal(at::Tensor sigma);

  std::string name() const override { return "HalfNormal"; }
  /// Finite at x = 0; -inf for x < 0.
  at::Tensor log_prob(const at::Tensor& value) const override;
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::positive(); }

  const at::Tensor& sigma() const { return sigma_; }

 private:
  at::Tensor sigma_;
};

}  // namespace distributions

/// A HalfNormal random variable named `name`; `sample_shape` iid copies.
RandomVariable HalfNormal(std::string name, const TensorArg& sigma, Shape sample_shape = {});

}  // namespace variate
