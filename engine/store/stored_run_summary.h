#pragma once
/// The posterior summary of a run stored in a project, computed from its draws with the
/// diagnostics `variate sample` and `variate summary` use: the same table, warnings and
/// summary document.

#include <optional>
#include <string>
#include <vector>

#include "engine/io/summary_report.h"
#include "engine/store/project.h"

namespace variate::store {

struct StoredRunSummary {
  std::vector<io::SummaryRow> parameters;    ///< posteriordb names ("theta[1]")
  std::vector<io::SummaryRow> sampler_rows;  ///< lp__ (NUTS runs)
  std::optional<io::SamplerTotals> totals;   ///< NUTS runs
  std::vector<std::string> warnings;         ///< as `variate sample` prints them
  int chains = 0;
  int draws_per_chain = 0;  ///< post-warmup rows used (chains cut to the shortest)
  std::string backend;      ///< what evaluated the density ("tape", "torch"); "" if not recorded
  int ranks = 0;            ///< the processes that made the run; 0 if not recorded

  /// io::format_summary_table of the rows.
  std::string table() const;
  /// io::summary_json of the rows, totals, backend and ranks.
  std::string json() const;
};

/// Whether a run's draws are independent draws from an approximation (ADVI, Laplace,
/// Pathfinder): R-hat and ESS do not apply to them.
inline bool draws_are_independent(RunMethod method) {
  return method == RunMethod::advi || method == RunMethod::optimize || method == RunMethod::pathfinder;
}

/// Summarizes the post-warmup draws of every chain of `run`; a run of independent draws
/// gets ess = S, mcse = sd / sqrt(S) and no R-hat (NaN), as `variate fit` writes them. Treedepth hits use the
/// run's configured max_depth (10 when its configuration does not say).
/// @throws ProjectError if the run does not exist.
StoredRunSummary summarize_run(const Project& project, Id run);

}  // namespace variate::store
