#pragma once
/// Energy Bayesian fraction of missing information (Betancourt 2016, "Diagnosing
/// suboptimal cotangent disintegrations in Hamiltonian Monte Carlo", eq. 3): how well the
/// momentum resampling explores the energy distribution. Values below 0.3 suggest the
/// sampler struggles (Stan's threshold).

#include <vector>

namespace variate::diagnostics {

/// sum_{i>=1} (E_i - E_{i-1})^2 / sum_i (E_i - mean(E))^2 for one chain's energies (as
/// cmdstanpy computes it; rstan's get_bfmi() is this times (n - 1) / n). NaN with fewer than 2
/// draws, constant energy or a non-finite energy.
double ebfmi(const std::vector<double>& energy);

}  // namespace variate::diagnostics
