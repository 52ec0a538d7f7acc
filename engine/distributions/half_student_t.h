#pragma once
/// HalfStudentT(nu, sigma): StudentT(nu, 0, sigma) folded onto x >= 0, density twice the
/// Student-t's.

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

class HalfStudentT : public Distribution {
 public:
  /// @throws ArgumentError if nu is not positive and finite or sigma is not positive.
  HalfStudentT(at::Tensor nu, at::Tensor sigma);

  std::string name() const override { return "HalfStudentT"; }
  /// Finite at x = 0; -inf for x < 0.
  at::Tensor log_prob(const at::Tensor& value) const override;
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::positive(); }

  const at::Tensor& nu() const { return nu_; }
  const at::Tensor& sigma() const { return sigma_; }

 private:
  at::Tensor nu_;
  at::Tensor sigma_;
};

}  // namespace distributions

/// A HalfStudentT random variable named `name`; `sample_shape` iid copies.
RandomVariable HalfStudentT(std::string name, const TensorArg& nu, const TensorArg& sigma,
                            Shape sample_shape = {});

}  // namespace variate
