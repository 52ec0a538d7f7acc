#pragma once
/// Dirichlet(alpha): a distribution on the probability simplex, Stan's parameterization
/// (concentrations alpha > 0 along the last dimension).

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

/// alpha has shape [batch..., K]; a draw is a simplex of K entries (event_shape [K]).
class Dirichlet : public Distribution {
 public:
  /// @throws ArgumentError if alpha is not at least 1-D, or not positive and finite.
  explicit Dirichlet(at::Tensor alpha);

  std::string name() const override { return "Dirichlet"; }
  /// @throws ArgumentError if the value does not end in K entries.
  at::Tensor log_prob(const at::Tensor& value) const override;
  /// Normalized Gamma(alpha_i, 1) draws: reparameterized, differentiable in alpha through
  /// the implicit gradient of _standard_gamma.
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::simplex(); }

  const at::Tensor& alpha() const { return alpha_; }

 private:
  at::Tensor alpha_;
};

}  // namespace distributions

/// A Dirichlet random variable named `name`; `sample_shape` iid copies.
///
///   auto theta = Dirichlet("theta", at::ones({3}, at::kDouble));   // uniform on the simplex
RandomVariable Dirichlet(std::string name, const TensorArg& alpha, Shape sample_shape = {});

}  // namespace variate
