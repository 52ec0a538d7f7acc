#pragma once
/// Options of an L-BFGS minimization, with CmdStan's defaults for `optimize
/// algorithm=lbfgs`, set by chainable setters that validate:
///
///   LbfgsOptions().history_size(5).max_iterations(2000).tol_rel_grad(1e7)
///
/// The relative tolerances are in units of machine epsilon, as CmdStan's are: the run
/// converges when the relative change of the objective falls below tol_rel_obj * 2.2e-16.

#include "engine/core/checked_option.h"

namespace variate {

class LbfgsOptions {
 public:
#define VARIATE_LBFGS_OPTION(type, name, default_value, check) \
  VARIATE_CHECKED_OPTION(LbfgsOptions, type, name, default_value, check)

  /// The first iteration's trial step length along the gradient, capped so the step is at
  /// most 1 long (later iterations try 1, as quasi-Newton steps).
  VARIATE_LBFGS_OPTION(double, init_alpha, 1e-3, value > 0)
  /// Converged when the objective changes by less than this.
  VARIATE_LBFGS_OPTION(double, tol_obj, 1e-12, value >= 0)
  /// ... or by less than this many epsilons relative to its magnitude.
  VARIATE_LBFGS_OPTION(double, tol_rel_obj, 1e4, value >= 0)
  /// ... or the gradient's norm falls below this.
  VARIATE_LBFGS_OPTION(double, tol_grad, 1e-8, value >= 0)
  /// ... or g' H^-1 g / max(|f|, 1) below this many epsilons (H the L-BFGS curvature).
  VARIATE_LBFGS_OPTION(double, tol_rel_grad, 1e7, value >= 0)
  /// ... or the step's norm falls below this.
  VARIATE_LBFGS_OPTION(double, tol_param, 1e-8, value >= 0)
  /// Curvature pairs (s, y) kept for the inverse Hessian.
  VARIATE_LBFGS_OPTION(int, history_size, 5, value >= 1)
  VARIATE_LBFGS_OPTION(int, max_iterations, 2000, value >= 1)
#undef VARIATE_LBFGS_OPTION
};

}  // namespace variate
