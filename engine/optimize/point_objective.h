#pragma once
/// A model's log density as an objective on plain vectors: what L-BFGS minimizes
/// (the negated log density) and where random starts are drawn.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/optimize/line_search.h"
#include "engine/target/unconstrained_target.h"

namespace variate {

/// log p(q) [+ log|J|] and its gradient, through the target's point density when it has
/// one (one evaluator for this function's life: use it on one thread), else LibTorch.
/// -inf where the density cannot be evaluated.
using LogDensityFunction = std::function<double(const std::vector<double>& q, std::vector<double>& gradient)>;
LogDensityFunction point_log_density(const UnconstrainedTarget& target, bool jacobian);

/// -log p, for minimize_lbfgs.
ObjectiveFunction negated(LogDensityFunction log_density);

/// Stan's random initialization: uniform(-radius, radius) on the unconstrained scale until
/// the log density and its gradient are finite, at most 100 tries, from the stream
/// (seed, stream).
/// @throws ArgumentError naming `what` ("optimize", "pathfinder path 2") if none is found.
std::vector<double> random_start(const LogDensityFunction& log_density, int64_t dimension, double radius,
                                 uint64_t seed, uint64_t stream, const std::string& what);

}  // namespace variate
