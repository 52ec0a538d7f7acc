#pragma once
/// Exponential(beta), Stan's parameterization (rate): p(x) = beta exp(-beta x), x >= 0.

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"
#include "engine/distributions/cumulative.h"

namespace variate {
namespace distributions {

class Exponential : public Distribution, public Cumulative {
 public:
  /// @throws ArgumentError if beta is not positive.
  explicit Exponential(at::Tensor beta);

  std::string name() const override { return "Exponential"; }
  /// log(beta) at x = 0; -inf for x < 0.
  at::Tensor log_prob(const at::Tensor& value) const override;
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::positive(); }
  at::Tensor log_cdf(const at::Tensor& x) const override;
  at::Tensor log_ccdf(const at::Tensor& x) const override;

  const at::Tensor& beta() const { return beta_; }

 private:
  at::Tensor beta_;
};

}  // namespace distributions

/// An Exponential random variable named `name` with rate `beta`; `sample_shape` iid copies.
RandomVariable Exponential(std::string name, const TensorArg& beta, Shape sample_shape = {});

}  // namespace variate
