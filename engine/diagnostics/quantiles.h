#pragma once
/// Sample quantiles with R's default definition (type 7; Hyndman & Fan 1996), the one
/// posterior's quantile2() reports as q5/q50/q95.

#include <vector>

#include "engine/diagnostics/draws.h"

namespace variate::diagnostics {

/// Quantiles of `values` at each of `probs`, in the order given: with h = (n - 1) p, the
/// linear interpolation between the floor(h)-th and ceil(h)-th order statistics (from 0).
/// NaN for every prob when `values` is empty or holds a NaN.
/// @throws ArgumentError if a prob is outside [0, 1].
std::vector<double> quantiles(std::vector<double> values, const std::vector<double>& probs);

/// One quantile of `values`; see quantiles().
double quantile(std::vector<double> values, double prob);

/// The quantile of all draws pooled across chains.
double quantile(const Draws& draws, double prob);

/// The median of all draws pooled across chains.
double median(const Draws& draws);

}  // namespace variate::diagnostics
