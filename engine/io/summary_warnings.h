#pragma once
/// The warnings printed after a sampling run, worded as CmdStan's `diagnose` and
/// stansummary word them: R-hat and ESS by the convergence rule every report applies
/// (diagnostics/thresholds.h: R-hat of 1.01 or more, a bulk or tail ESS below 100 per
/// chain); E-BFMI below 0.3 (Betancourt 2016, "Diagnosing suboptimal cotangent
/// disintegrations in Hamiltonian Monte Carlo").

#include <cstdint>
#include <string>
#include <vector>

#include "engine/io/summary_report.h"

namespace variate::io {

/// What the sampler reported, as plain counts.
struct SamplerChecks {
  int64_t chains = 1;
  int64_t transitions = 0;         ///< post-warmup, all chains together
  int64_t divergences = 0;         ///< post-warmup
  int64_t max_treedepth_hits = 0;  ///< post-warmup transitions with treedepth >= max_depth
  int64_t max_depth = 10;
  std::vector<double> ebfmi;       ///< one per chain; empty when not computed
};

/// The warning lines, one per problem, in the order: divergences, treedepth, E-BFMI (one
/// line per chain), R-hat, ESS. No problems: an empty list. NaN statistics (a constant
/// parameter) are not flagged.
std::vector<std::string> summary_warnings(const SamplerChecks& checks,
                                          const std::vector<SummaryRow>& parameters);

}  // namespace variate::io
