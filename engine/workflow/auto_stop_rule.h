#pragma once
/// Auto-stop's rule: the convergence rule every report applies (diagnostics/thresholds.h),
/// with the bounds a user may tighten, and a cap on the draws.

#include "engine/diagnostics/thresholds.h"

namespace variate::workflow {

struct AutoStopRule {
  /// Every quantity's R-hat below convergence.max_rhat, and its bulk and tail ESS at
  /// least convergence.min_ess_per_chain per chain.
  diagnostics::ConvergenceRule convergence;
  /// Draws per chain after warmup at most (the first round's count included).
  int max_draws = 100000;
};

}  // namespace variate::workflow
