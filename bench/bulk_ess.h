#pragma once
/// The smallest bulk-ESS over a run's parameters, as the benchmarks compare samplers by:
/// Variate's diagnostics (posterior's ess_bulk) on the draws of every side alike.

#include <string>
#include <vector>

#include "engine/diagnostics/draws.h"
#include "engine/mcmc/sample.h"

#include "report.h"

namespace variate::bench {

struct MinBulkEss {
  double ess = kNotAvailable;  // NaN when no parameter has a finite bulk-ESS
  std::string parameter;       // the one with the smallest
};

/// Over `draws` (per parameter, per chain), named by `names` (by position where shorter).
MinBulkEss min_bulk_ess(const std::vector<diagnostics::Draws>& draws,
                        const std::vector<std::string>& names);

/// The sampling iterations' unconstrained positions, per coordinate, per chain.
std::vector<diagnostics::Draws> sampling_draws(const std::vector<ChainResult>& chains);

}  // namespace variate::bench
