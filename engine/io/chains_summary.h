#pragma once
/// The posterior summary of a run's draw rows, computed one way for every report of it:
/// `variate sample`, `variate summary`, the summary a project stores, exported programs.
///
///   const ChainsSummary summary = summarize_chains(rows, columns);  // rows[chain][draw][column]
///   summary_warnings(sampler_checks(rows, 10), summary.parameters);

#include <cstdint>
#include <string>
#include <vector>

#include "engine/io/summary_report.h"
#include "engine/io/summary_warnings.h"
#include "engine/mcmc/sample.h"

namespace variate::io {

/// Each chain's post-warmup draw rows: rows[chain][draw][column].
using ChainRows = std::vector<std::vector<std::vector<double>>>;

struct ChainsSummary {
  std::vector<SummaryRow> parameters;    ///< the model's columns, posteriordb names ("theta[1]")
  std::vector<SummaryRow> sampler_rows;  ///< lp__, when a column has that name
};

/// Summarizes every column of the rows, named by `columns` (Stan CSV names, as a header
/// row has them): lp__ as a sampler row, the method's other columns (names ending in
/// "__") left out, the rest as parameters. Chains are cut to the shortest (a stopped run).
/// @throws ArgumentError if a row is shorter than `columns`.
ChainsSummary summarize_chains(const ChainRows& rows, const std::vector<std::string>& columns);

/// Divergences, tree-depth hits and each chain's E-BFMI from the sampler columns NUTS rows
/// begin with (mcmc/sampler_columns.h).
SamplerChecks sampler_checks(const ChainRows& rows, int64_t max_depth);

/// What the chains of a run cost: leapfrog steps of every iteration (warmup included) and
/// gradient evaluations summed over chains, times of the slowest chain; divergences and
/// tree-depth hits after warmup.
SamplerTotals sampler_totals(const std::vector<ChainResult>& chains);

}  // namespace variate::io
