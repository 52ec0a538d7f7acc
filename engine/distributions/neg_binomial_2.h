#pragma once
/// NegBinomial2(mu, phi), Stan's neg_binomial_2: mean mu, variance mu + mu^2 / phi. The
/// binomial coefficient follows Stan's binomial_coefficient_log (Stirling differences), so
/// large phi, where the distribution nears Poisson(mu), keeps full precision.

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

class NegBinomial2 : public Distribution {
 public:
  /// @throws ArgumentError if mu or phi is not positive and finite.
  NegBinomial2(at::Tensor mu, at::Tensor phi);

  std::string name() const override { return "NegBinomial2"; }
  /// log C(k + phi - 1, k) + k log(mu / (mu + phi)) + phi log(phi / (mu + phi)); -inf
  /// unless k is a non-negative integer.
  at::Tensor log_prob(const at::Tensor& value) const override;
  /// The gamma-Poisson mixture: Poisson(G) with G ~ Gamma(phi, rate phi / mu). Counts in
  /// the parameters' floating dtype.
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::nonnegative_integer(); }

  const at::Tensor& mu() const { return mu_; }
  const at::Tensor& phi() const { return phi_; }

 private:
  at::Tensor mu_;
  at::Tensor phi_;
};

}  // namespace distributions

/// A NegBinomial2 random variable named `name` with mean `mu` and precision `phi`.
RandomVariable NegBinomial2(std::string name, const TensorArg& mu, const TensorArg& phi,
                            Shape sample_shape = {});

}  // namespace variate
