#pragma once
/// Pathfinder (Zhang, Carpenter, Gelman & Vehtari 2022, JMLR 23(306)): L-BFGS on the
/// model's unconstrained log density (with the Jacobian) from a random start; at every
/// point of its path a normal approximation from the L-BFGS inverse Hessian
/// (lbfgs_gaussian.h), scored by a Monte Carlo ELBO; the best one is the path's
/// approximation. Multi-path Pathfinder runs num_paths such paths from independent starts,
/// pools their draws and resamples them by Pareto smoothed importance weights p/q
/// (diagnostics/psis.h), whose k-hat says how far the draws can be trusted.
///
///   const PathfinderResult fit = pathfinder(model.target(), PathfinderOptions().seed(1));
///   use(fit.draws, fit.pareto_k);

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

#include "engine/optimize/lbfgs.h"
#include "engine/pathfinder/lbfgs_gaussian.h"
#include "engine/pathfinder/pathfinder_options.h"
#include "engine/target/unconstrained_target.h"

namespace variate {

struct PathResult {
  int path = 0;  ///< 0-based
  LbfgsStatus lbfgs_status = LbfgsStatus::max_iterations;
  int iterations = 0;
  std::vector<double> lbfgs_point;  ///< where L-BFGS ended (empty if it did not start)
  /// The ELBO estimate of the approximation at each L-BFGS iteration 1..iterations
  /// (-inf where none could be built or scored).
  std::vector<double> elbo;
  int best_iteration = 0;  ///< 1-based; 0 when the path found no approximation
  double best_elbo = 0;
  std::optional<LbfgsGaussian> approximation;  ///< the best one
  /// num_draws draws from it: unconstrained [n, d], log p (with the Jacobian), log q.
  at::Tensor draws, log_p, log_q;
  long gradient_evaluations = 0;  ///< L-BFGS's and the ELBO draws' density evaluations
  std::string failure;            ///< why the path found no approximation (else empty)
};

struct PathfinderResult {
  std::vector<PathResult> paths;
  /// The draws returned: a single path's own, or the pooled draws resampled by PSIS (or
  /// all pooled draws when psis_resample is off).
  at::Tensor draws, log_p, log_q;
  /// PSIS k-hat of the pooled draws' log p - log q: above 0.7 the approximation is not to
  /// be trusted (Yao et al. 2018).
  double pareto_k = 0;
  long gradient_evaluations = 0;
  double seconds_paths = 0;
  double seconds_psis = 0;
};

/// Progress: a path's L-BFGS iteration with its ELBO estimate.
using PathfinderObserver = std::function<void(int path, int iteration, double elbo)>;

/// @throws ArgumentError if every path fails (no start with a finite density, no
/// approximation with a finite ELBO), saying why.
PathfinderResult pathfinder(const UnconstrainedTarget& target, const PathfinderOptions& options,
                            const PathfinderObserver& observer = {}, const std::atomic<bool>* stop = nullptr);

/// One path (single-path Pathfinder) from stream `path` of the seed; never throws for a
/// path that fails (see PathResult::failure).
PathResult pathfinder_path(const UnconstrainedTarget& target, const PathfinderOptions& options, int path,
                           const PathfinderObserver& observer = {}, const std::atomic<bool>* stop = nullptr);

}  // namespace variate
