#pragma once
/// Small helpers every family uses for its parameters and densities.

#include <initializer_list>
#include <vector>

#include <ATen/core/Tensor.h>

#include "variate/core/shape.h"

namespace variate::distributions {

/// The parameters broadcast to a common shape (returned last) in a common floating dtype.
/// @throws ArgumentError naming `family` if the shapes do not broadcast.
std::vector<at::Tensor> broadcast_parameters(const char* family,
                                             std::initializer_list<at::Tensor> parameters);

/// Integer data (counts, indicators) as the parameters' floating dtype.
at::Tensor as_floating(const at::Tensor& value, const at::Tensor& like);

/// `log_prob` where `inside` holds, -inf elsewhere.
at::Tensor mask_outside_support(const at::Tensor& log_prob, const at::Tensor& inside);

/// log(2 pi) / 2.
constexpr double kHalfLog2Pi = 0.91893853320467274178;
constexpr double kLogPi = 1.14472988584940017414;
constexpr double kLog2 = 0.69314718055994530942;

}  // namespace variate::distributions
