#pragma once
// `sample --init pathfinder`: chains start at distinct draws of multi-path Pathfinder
// (Zhang et al. 2022, Sec. 6: its draws reach the typical set, so warmup does not spend
// its first windows getting there), as cmdstanr's `$sample(init = pathfinder_fit)`, and
// warmup's first inverse metric is the draws' covariance (Zhang et al. 2022 suggest it).

#include <cstdint>
#include <vector>

#include "engine/target/unconstrained_target.h"

namespace variate::services {

struct PathfinderInit {
  std::vector<std::vector<double>> positions;  ///< one unconstrained start per chain
  /// The draws' variances (diagonal metric) or covariance (dense, row-major): warmup's
  /// first inverse metric instead of the identity.
  std::vector<double> inverse_metric;
  long gradient_evaluations = 0;
  double pareto_k = 0;
};

/// @throws ArgumentError if Pathfinder fails on every path.
PathfinderInit pathfinder_starts(const UnconstrainedTarget& target, int chains, uint64_t seed, bool dense);

}  // namespace variate::services
