#pragma once
/// Normal(mu, sigma), as distributions/normal.cpp: log p = -z^2 / 2 - log(sigma) - log(2 pi) / 2
/// with z = (x - mu) / sigma; d/dx = -z / sigma, d/dmu = z / sigma, d/dsigma = (z^2 - 1) / sigma.
/// `at` is one element's (a Mixture's component); the Normal sink (normal_log_density.cpp),
/// the hottest, sums the same pieces over the elements, by sum z^2 and sum z where sigma is
/// one value for all.

#include <tuple>

#include "engine/distributions/parameters.h"
#include "engine/tape/densities/pointwise_family.h"

namespace variate::tape::families {

struct Normal {
  using Arguments = std::tuple<Plain, Positive>;

  /// z = (x - mu) / sigma, with 1 / sigma given.
  static double standardized(double x, double mu, double inverse_sigma) { return (x - mu) * inverse_sigma; }
  /// -z^2 / 2 summed over elements whose z^2 sum to `z_squared`.
  static double kernel(double z_squared) { return -0.5 * z_squared; }
  /// d/dmu = -d/dx: z / sigma, or sum z / sigma with sum z given.
  static double location_partial(double z, double inverse_sigma) { return z * inverse_sigma; }
  /// d/dsigma summed over `count` elements whose z^2 sum to `z_squared`.
  static double scale_partial(double z_squared, double count, double inverse_sigma) {
    return (z_squared - count) * inverse_sigma;
  }

  static Element at(double x, const Plain& mu, const Positive& sigma) {
    const double z = standardized(x, mu.value, sigma.inverse);
    const double d_mu = location_partial(z, sigma.inverse);
    return {kernel(z * z) - sigma.log - distributions::kHalfLog2Pi,
            -d_mu,
            {d_mu, scale_partial(z * z, 1.0, sigma.inverse)}};
  }
};

}  // namespace variate::tape::families
