#pragma once
/// Sampler counts and times of a run read back from its Stan CSV files, for
/// `variate summary FILE.csv...` (the sampler object of the summary document and the
/// inputs of its warnings).

#include <vector>

#include "engine/io/stan_csv_reader.h"
#include "engine/io/summary_report.h"
#include "engine/io/summary_warnings.h"

namespace variate::io {

/// Divergences and treedepth hits over the post-warmup rows; leapfrog steps (which are
/// also the gradient evaluations) over every saved row, warmup included when it was
/// saved; seconds summed over chains from their timing blocks. The treedepth limit is
/// the file's `max_depth` (10 when it does not say).
/// @throws ArgumentError naming the file if a sampler column is missing.
SamplerTotals sampler_totals(const std::vector<StanCsv>& chains);

/// The counts the warnings need, with each chain's E-BFMI (chains of two draws or more).
/// @throws ArgumentError naming the file if a sampler column is missing.
SamplerChecks sampler_checks(const std::vector<StanCsv>& chains);

}  // namespace variate::io
