#pragma once
/// NegBinomial2(mu, phi)'s log mass less log k!, in the pieces its distributions/*.cpp
/// computes it from: what the NegBinomial2 sinks (discrete_log_densities.cpp) sum and the
/// pointwise log likelihood (pointwise_log_densities.cpp) takes one by one.

#include <cmath>

#include <ATen/native/Math.h>

#include "engine/distributions/parameters.h"

namespace variate::tape::families {

struct StirlingDiff {
  double value = 0;
  double derivative = 0;
};

// lgamma(x) minus its Stirling approximation and the derivative, as the family computes
// it: the asymptotic series from x = 10 on, the direct difference below.
inline StirlingDiff lgamma_stirling_diff(double x) {
  constexpr double kSeries[] = {1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680, 1.0 / 1188, -691.0 / 360360};
  if (x >= 10) {
    const double inverse_square = 1 / (x * x);
    double series = kSeries[5];
    double series_derivative = 0;  // in inverse_square
    for (int i = 4; i >= 0; --i) {
      series_derivative = series + series_derivative * inverse_square;
      series = kSeries[i] + series * inverse_square;
    }
    return {series / x, -2 * series_derivative / (x * x * x * x) - series / (x * x)};
  }
  return {std::lgamma(x) - ((x - 0.5) * std::log(x) - x + distributions::kHalfLog2Pi),
          calc_digamma(x) - (std::log(x) + (x - 0.5) / x - 1)};
}

// log Gamma(k + phi) / Gamma(phi) as the family writes it (without the cancellation of
// two lgammas), with its derivative in phi.
inline StirlingDiff log_rising_factorial(double k, double phi, const StirlingDiff& at_phi) {
  const StirlingDiff at_sum = lgamma_stirling_diff(k + phi);
  const double k_over_phi = k / phi;
  return {k * std::log(k + phi) - k + (phi - 0.5) * std::log1p(k_over_phi) + at_sum.value - at_phi.value,
          k / (k + phi) + std::log1p(k_over_phi) - (phi - 0.5) * k_over_phi / ((1 + k_over_phi) * phi) +
              at_sum.derivative - at_phi.derivative};
}

// k log(mu / (mu + phi)) + count phi log(phi / (mu + phi)), in the family's log1p form, of
// one element (count 1) or of all through their total k; partials into d_mu and d_phi.
inline double log_odds_terms(double k, double count, double mu, double phi, double& d_mu, double& d_phi) {
  const double phi_over_mu = phi / mu;
  const double mu_over_phi = mu / phi;
  const double log1p_mu_over_phi = std::log1p(mu_over_phi);
  d_mu = k * phi_over_mu / ((1 + phi_over_mu) * mu) - count / (1 + mu_over_phi);
  d_phi = -k / ((1 + phi_over_mu) * mu) - count * (log1p_mu_over_phi - mu_over_phi / (1 + mu_over_phi));
  return -k * std::log1p(phi_over_mu) - count * phi * log1p_mu_over_phi;
}

}  // namespace variate::tape::families
