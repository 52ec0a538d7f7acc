#pragma once
/// Argument validation in the style of Stan's check_* functions: each failure names the
/// function, the argument and the offending value.

#include <stdexcept>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

#include "engine/core/argument_error.h"
#include "engine/core/domain_error.h"

namespace variate {

/// Whether distributions validate their parameters (on by default, per thread).
bool validation_enabled();

/// Turns argument validation off (or on) for the current thread while in scope; samplers
/// use it on their hot path once a model has been checked.
class ValidationGuard {
 public:
  explicit ValidationGuard(bool enabled);
  ~ValidationGuard();
  ValidationGuard(const ValidationGuard&) = delete;
  ValidationGuard& operator=(const ValidationGuard&) = delete;

 private:
  bool previous_;
};

/// Whether a model checks its distributions' arguments even with validation off (set per
/// thread): a sampler's points are evaluated so, with the rest of validation (data masks,
/// the GLM kernel's gate) as on the hot path.
bool argument_checks_enabled();

class ArgumentCheckGuard {
 public:
  explicit ArgumentCheckGuard(bool enabled);
  ~ArgumentCheckGuard();
  ArgumentCheckGuard(const ArgumentCheckGuard&) = delete;
  ArgumentCheckGuard& operator=(const ArgumentCheckGuard&) = delete;

 private:
  bool previous_;
};

/// @throws ArgumentError "Normal: argument 'sigma' must be positive, got -1 (at index 2)".
void check_positive(const char* function, const char* argument, const at::Tensor& value);
void check_nonnegative(const char* function, const char* argument, const at::Tensor& value);
void check_finite(const char* function, const char* argument, const at::Tensor& value);
/// Values in [0, 1].
void check_probability(const char* function, const char* argument, const at::Tensor& value);
/// Non-negative integers stored in any dtype.
void check_nonnegative_integer(const char* function, const char* argument,
                               const at::Tensor& value);
/// lower < upper elementwise.
void check_less(const char* function, const char* lower_name, const at::Tensor& lower,
                const char* upper_name, const at::Tensor& upper);
/// Non-negative entries along the last dimension that sum to 1 (within 1e-8 in double,
/// 1e-5 in lower precision).
void check_simplex(const char* function, const char* argument, const at::Tensor& value);
/// Lower triangular with a positive diagonal, over the last two dimensions.
void check_cholesky_factor(const char* function, const char* argument,
                           const at::Tensor& value);
/// Symmetric positive definite over the last two dimensions.
void check_positive_definite(const char* function, const char* argument,
                             const at::Tensor& value);
/// At least `rank` dimensions (e.g. a vector parameter must be at least 1-D).
void check_min_rank(const char* function, const char* argument, const at::Tensor& value,
                    int64_t rank);

/// Throws DomainError "function: argument 'name' must be <requirement>, got <first bad
/// value> (at index i)" for the first element where `bad` is true; does nothing otherwise.
void throw_if_any(const char* function, const char* argument, const at::Tensor& value,
                  const at::Tensor& bad, const char* requirement);

}  // namespace variate
