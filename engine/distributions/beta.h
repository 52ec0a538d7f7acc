#pragma once
/// Beta(alpha, beta), Stan's parameterization (two positive shapes); the density on the
/// open unit interval.

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

class Beta : public Distribution {
 public:
  /// @throws ArgumentError if alpha or beta is not positive and finite.
  Beta(at::Tensor alpha, at::Tensor beta);

  std::string name() const override { return "Beta"; }
  /// The endpoints 0 and 1 are outside the support (-inf): they have probability zero and
  /// the density there is 0, finite or infinite depending on the shapes.
  at::Tensor log_prob(const at::Tensor& value) const override;
  /// Reparameterized: X / (X + Y) with X ~ Gamma(alpha), Y ~ Gamma(beta).
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::unit_interval(); }

  const at::Tensor& alpha() const { return alpha_; }
  const at::Tensor& beta() const { return beta_; }

 private:
  at::Tensor alpha_;
  at::Tensor beta_;
};

}  // namespace distributions

/// A Beta random variable named `name`; `sample_shape` iid copies.
RandomVariable Beta(std::string name, const TensorArg& alpha, const TensorArg& beta,
                    Shape sample_shape = {});

}  // namespace variate
