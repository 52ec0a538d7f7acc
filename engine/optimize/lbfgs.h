#pragma once
/// Limited-memory BFGS (Nocedal & Wright 2006, Algorithm 7.5: the two-loop recursion with
/// initial scaling s'y / y'y) with a strong Wolfe line search, stopping by CmdStan's five
/// convergence tests (lbfgs_options.h). As Stan's, a failed line search forgets the
/// curvature history and tries once more along the gradient before giving up.
///
///   const LbfgsResult r = minimize_lbfgs(f, x0, LbfgsOptions());
///   if (converged(r.status)) use(r.x);

#include <functional>
#include <string>
#include <vector>

#include "engine/optimize/lbfgs_options.h"
#include "engine/optimize/line_search.h"

namespace variate {

enum class LbfgsStatus {
  converged_objective,           ///< |f change| < tol_obj
  converged_relative_objective,  ///< relative f change < tol_rel_obj * epsilon
  converged_gradient,            ///< |g| < tol_grad
  converged_relative_gradient,   ///< g' H^-1 g / max(|f|, 1) < tol_rel_grad * epsilon
  converged_parameters,          ///< |step| < tol_param
  max_iterations,
  line_search_failed,  ///< no step along the direction nor the gradient decreased f enough
  stopped,             ///< the observer asked to stop
};

bool converged(LbfgsStatus status);
/// CmdStan's words: "Convergence detected: relative gradient magnitude is below tolerance".
std::string describe(LbfgsStatus status);

/// One accepted point of the path: iteration 0 is the start.
struct LbfgsIterate {
  int iteration = 0;
  std::vector<double> x;
  double value = 0;
  std::vector<double> gradient;
  int evaluations = 0;  ///< of f, from the start to this point
};

struct LbfgsResult {
  LbfgsStatus status = LbfgsStatus::max_iterations;
  std::vector<double> x;  ///< the last accepted point
  double value = 0;
  std::vector<double> gradient;
  int iterations = 0;
  int evaluations = 0;
};

/// Called with each accepted point (the start first); returning false stops the run.
using LbfgsObserver = std::function<bool(const LbfgsIterate&)>;

/// Minimizes `f` from `x0`.
/// @throws ArgumentError if f or its gradient is not finite at x0.
LbfgsResult minimize_lbfgs(const ObjectiveFunction& f, std::vector<double> x0, const LbfgsOptions& options,
                           const LbfgsObserver& observer = {});

}  // namespace variate
