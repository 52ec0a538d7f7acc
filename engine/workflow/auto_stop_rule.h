#pragma once
/// Auto-stop's rule, on its own (no tensors): the studio's run settings hold it.

namespace variate::workflow {

struct AutoStopRule {
  /// Every quantity's R-hat must be below this.
  double max_rhat = 1.01;
  /// Every quantity's bulk and tail ESS must be at least this (over all chains).
  double min_ess = 400;
  /// Draws per chain after warmup at most (the first round's count included).
  int max_draws = 100000;
};

}  // namespace variate::workflow
