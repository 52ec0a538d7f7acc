#pragma once
/// Options of a Pathfinder run, with CmdStan's defaults for `pathfinder`:
///
///   PathfinderOptions().num_paths(4).seed(1)

#include <cstdint>

#include "engine/core/checked_option.h"
#include "engine/optimize/lbfgs_options.h"

namespace variate {

class PathfinderOptions {
 public:
#define VARIATE_PATHFINDER_OPTION(type, name, default_value, check) \
  VARIATE_CHECKED_OPTION(PathfinderOptions, type, name, default_value, check)

  VARIATE_PATHFINDER_OPTION(uint64_t, seed, 0, true)
  /// Independent single paths from random starts; their draws are pooled and resampled.
  VARIATE_PATHFINDER_OPTION(int, num_paths, 4, value >= 1)
  /// Draws per path from its best approximation.
  VARIATE_PATHFINDER_OPTION(int, num_draws, 1000, value >= 1)
  /// Draws kept by Pareto smoothed importance resampling of the pooled draws.
  VARIATE_PATHFINDER_OPTION(int, num_psis_draws, 1000, value >= 1)
  /// Resample the pooled draws by their smoothed importance weights (multi-path).
  VARIATE_PATHFINDER_OPTION(bool, psis_resample, true, true)
  /// Monte Carlo draws per ELBO estimate along the path.
  VARIATE_PATHFINDER_OPTION(int, num_elbo_draws, 25, value >= 1)
  VARIATE_PATHFINDER_OPTION(double, init_radius, 2.0, value >= 0)
#undef VARIATE_PATHFINDER_OPTION

 public:
  /// The L-BFGS run of each path: CmdStan's tolerances, at most 1000 iterations.
  LbfgsOptions& lbfgs() { return lbfgs_; }
  const LbfgsOptions& lbfgs() const { return lbfgs_; }

 private:
  LbfgsOptions lbfgs_ = LbfgsOptions().max_iterations(1000);
};

}  // namespace variate
