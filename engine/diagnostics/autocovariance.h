#pragma once
/// Autocovariance of a chain at every lag, via the FFT (Geyer 1992's biased estimator,
/// the one Stan and posterior use for ESS).

#include <vector>

#include "engine/diagnostics/draws.h"

namespace variate::diagnostics {

/// gamma[t] = (1/n) sum_{i < n - t} (x_i - mean)(x_{i+t} - mean) for t = 0 .. n-1.
/// Empty for an empty chain; NaN where the chain holds a non-finite draw.
std::vector<double> autocovariance(const std::vector<double>& chain);

/// The autocovariance of each chain, averaged over chains lag by lag (what the
/// multi-chain ESS needs), computed in one batched FFT.
/// @throws ArgumentError as check_draws.
std::vector<double> mean_autocovariance(const Draws& chains);

}  // namespace variate::diagnostics
