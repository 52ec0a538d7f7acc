#pragma once
/// Standard draws that the families' samplers transform (by location-scale or inverse
/// CDF), each taken from the caller's generator only.

#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include "engine/core/shape.h"

namespace variate::distributions {

/// Uniform draws in the open interval (0, 1), so that inverse CDFs stay finite.
at::Tensor standard_uniform(const Shape& shape, at::Generator generator,
                            const at::TensorOptions& options);

/// Exponential(1) draws by inversion, -log(U); strictly positive and finite.
at::Tensor standard_exponential(const Shape& shape, at::Generator generator,
                                const at::TensorOptions& options);

/// Gamma(alpha, 1) draws of alpha's shape, differentiable in alpha (at::_standard_gamma's
/// implicit reparameterization), raised to the smallest positive normal number.
at::Tensor standard_gamma(const at::Tensor& alpha, at::Generator generator);

/// Student-t draws with `nu` degrees of freedom, of nu's shape, as Z / sqrt(V / nu) with
/// V ~ chi-square(nu) = 2 Gamma(nu / 2, 1); differentiable in nu.
at::Tensor standard_student_t(const at::Tensor& nu, at::Generator generator);

/// `draws` raised to the smallest positive normal number of their dtype: positive
/// families never return 0 after underflow (0 is outside Support::positive()).
at::Tensor clamp_positive(const at::Tensor& draws);

}  // namespace variate::distributions
