#include "engine/diagnostics/thresholds.h"

#include <algorithm>

namespace variate::diagnostics {

double ConvergenceRule::min_ess(int64_t chains) const {
  return min_ess_per_chain * static_cast<double>(std::max<int64_t>(1, chains));
}

double min_ess(int64_t chains) { return ConvergenceRule().min_ess(chains); }

bool rhat_flagged(double r_hat, const ConvergenceRule& rule) { return r_hat >= rule.max_rhat; }

bool ess_flagged(double ess, int64_t chains, const ConvergenceRule& rule) { return ess < rule.min_ess(chains); }

ConvergenceVerdict convergence_verdict(double r_hat, double ess_bulk, double ess_tail, int64_t chains,
                                       const ConvergenceRule& rule) {
  return {rhat_flagged(r_hat, rule), ess_flagged(ess_bulk, chains, rule) || ess_flagged(ess_tail, chains, rule)};
}

}  // namespace variate::diagnostics
