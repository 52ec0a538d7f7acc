#pragma once
/// Where a distribution's argument must lie, as its distribution checks it with validation
/// on (engine/distributions: check_positive, check_simplex, ...): what the tape checks of an
/// argument computed from parameters at every sampled point.

#include <string>

namespace variate::model {

enum class ArgumentDomain {
  any,          ///< a location, logits: no constraint the tape checks
  positive,     ///< > 0: scales, rates, shapes, degrees of freedom
  nonnegative,  ///< >= 0: Poisson's rate
  probability,  ///< in [0, 1]
  simplex,      ///< entries >= 0 summing to 1 along the last axis
};

/// The domain of argument `parameter` (the model's name: "sigma", "p") of `family`.
/// Uniform's lo < hi is a relation of two arguments, not a domain: each is `any`.
ArgumentDomain argument_domain(const std::string& family, const std::string& parameter);

/// Whether the distribution also requires the argument finite (its check_finite): a
/// location, logits, a log rate, degrees of freedom, Beta's and Dirichlet's shapes,
/// Uniform's bounds, a covariance. Scales, rates and Gamma's shapes may be infinite.
bool must_be_finite(const std::string& family, const std::string& parameter);

/// "positive", "a probability", "a simplex": as messages word it.
const char* describe(ArgumentDomain domain);

}  // namespace variate::model
