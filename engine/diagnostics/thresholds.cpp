#include "engine/diagnostics/thresholds.h"

#include <algorithm>

namespace variate::diagnostics {

double min_ess(int64_t chains) {
  return kMinEssPerChain * static_cast<double>(std::max<int64_t>(1, chains));
}

bool rhat_flagged(double r_hat) { return r_hat >= kMaxRhat; }

bool ess_flagged(double ess, int64_t chains) { return ess < min_ess(chains); }

ConvergenceVerdict convergence_verdict(double r_hat, double ess_bulk, double ess_tail,
                                       int64_t chains) {
  return {rhat_flagged(r_hat), ess_flagged(ess_bulk, chains) || ess_flagged(ess_tail, chains)};
}

}  // namespace variate::diagnostics
