#pragma once
// The posterior summary of a run's draws: one row per column, with the sampler's checks.

#include <string>
#include <vector>

#include <variate/io/summary_report.h>
#include <variate/io/summary_warnings.h>

namespace variate::cli {

/// draws[chain][draw][column]; chains cut to the shortest (a stopped run). Columns
/// [first, end) are summarized under `names` (one per column from `first`).
std::vector<io::SummaryRow> summarize_columns(
    const std::vector<std::vector<std::vector<double>>>& draws, size_t first,
    const std::vector<std::string>& names);

/// Divergences, tree-depth hits and E-BFMI from the sampler columns of the draws
/// (divergent__ is column 5, treedepth__ 3, energy__ 6).
io::SamplerChecks sampler_checks(const std::vector<std::vector<std::vector<double>>>& draws,
                                 int max_depth);

}  // namespace variate::cli
