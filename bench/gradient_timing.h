#pragma once
/// Microseconds per gradient of density functions as NUTS calls them (the std::function
/// over std::vector<double> of engine/mcmc/hamiltonian.h), on a fixed set of points: the
/// median over timed batches, each batch enough passes over the points to last a couple of
/// milliseconds (of wall or CPU time, as TimingOptions says), the functions timed in turns.

#include <cstdint>
#include <vector>

#include "engine/mcmc/hamiltonian.h"

#include "timing.h"

namespace variate::bench {

/// `count` points of `dimension` standard-normal coordinates, the same for a given seed.
std::vector<std::vector<double>> standard_normal_points(int64_t dimension, int count,
                                                        uint64_t seed);

/// Microseconds per call of each of `functions` over `points`. `options.repeats` batches of
/// each, after `options.warmup` untimed ones.
std::vector<double> us_per_gradient(const std::vector<DensityFunction>& functions,
                                    const std::vector<std::vector<double>>& points,
                                    const TimingOptions& options);

/// How far two density functions differ over `points`: the largest of
/// |lp_a - lp_b| / max(1, |lp_b|) and max_i |g_a,i - g_b,i| / max(1, max_i |g_b,i|).
/// Points where either log density is not finite count only when the other is finite.
double max_relative_difference(const DensityFunction& a, const DensityFunction& b,
                               const std::vector<std::vector<double>>& points);

}  // namespace variate::bench
