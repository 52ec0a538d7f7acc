#pragma once
/// Small helpers every family uses for its parameters and densities.

#include <initializer_list>
#include <vector>

#include <ATen/core/Tensor.h>

#include "engine/core/shape.h"

namespace variate::distributions {

/// The parameters broadcast to a common shape (returned last) in a common floating dtype.
/// @throws ArgumentError naming `family` if the shapes do not broadcast.
std::vector<at::Tensor> broadcast_parameters(const char* family,
                                             std::initializer_list<at::Tensor> parameters);

/// Integer data (counts, indicators) as the parameters' floating dtype.
at::Tensor as_floating(const at::Tensor& value, const at::Tensor& like);

/// Support::contains' 1e-8, widened to a few rounding errors per entry of a sum of
/// `entries` values in `dtype`, so that float32 draws (whose sums are off by ~1e-7) still
/// count as simplexes, unit rows and the like.
double rounding_tolerance(at::ScalarType dtype, int64_t entries);

/// `log_prob` where `inside` holds, -inf elsewhere.
at::Tensor mask_outside_support(const at::Tensor& log_prob, const at::Tensor& inside);

/// log(2 pi) / 2.
constexpr double kHalfLog2Pi = 0.91893853320467274178;
constexpr double kLogPi = 1.14472988584940017414;
constexpr double kLog2 = 0.69314718055994530942;

}  // namespace variate::distributions
