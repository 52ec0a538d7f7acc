#pragma once
/// Poisson(lambda), Stan's parameterization (the rate), or Poisson(log_rate(alpha)) with
/// lambda = exp(alpha) (Stan's poisson_log).

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

/// Keeps whichever parameterization it was given and evaluates log_prob from it, so a
/// large log rate never overflows through exp before it is needed.
class Poisson : public Distribution {
 public:
  /// @throws ArgumentError if lambda is negative or not finite (0 is allowed, as in Stan).
  explicit Poisson(at::Tensor lambda);
  /// @throws ArgumentError if a log rate is not finite.
  explicit Poisson(const LogRate& log_rate);

  std::string name() const override { return "Poisson"; }
  /// k log lambda - lambda - log k!; -inf unless k is a non-negative integer.
  at::Tensor log_prob(const at::Tensor& value) const override;
  /// Counts in the parameter's floating dtype.
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::nonnegative_integer(); }

  bool has_log_rate() const { return log_rate_.defined(); }
  /// The rate; computed from the log rate when that was given.
  at::Tensor lambda() const;
  /// The log rate; computed from lambda when that was given.
  at::Tensor log_rate() const;

 private:
  at::Tensor lambda_;    // defined when constructed from the rate
  at::Tensor log_rate_;  // defined when constructed from the log rate
};

}  // namespace distributions

/// A Poisson random variable named `name` with rate `lambda`.
RandomVariable Poisson(std::string name, const TensorArg& lambda, Shape sample_shape = {});
/// A Poisson random variable with log rate `alpha`: `Poisson("k", log_rate(alpha))`.
RandomVariable Poisson(std::string name, const LogRate& log_rate, Shape sample_shape = {});

}  // namespace variate
