#pragma once
/// Pathfinder, the one driver every front end calls (`variate pathfinder`, the studio's
/// Pathfinder runs; Zhang, Carpenter, Gelman & Vehtari 2022): single paths from
/// independent random starts, their draws pooled and resampled by Pareto smoothed
/// importance weights, recorded as the run's one chain with the PSIS k-hat of the pooled
/// draws beside the summary. A stop ends the path under way at its next L-BFGS iteration
/// and skips the rest.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/io/summary_report.h"
#include "engine/pathfinder/pathfinder.h"
#include "engine/services/run_observers.h"
#include "engine/services/run_spec.h"

namespace variate::services {

struct PathfinderRunResult {
  RunFacts facts;
  store::Id run_id = -1;
  PathfinderResult fit;
  bool resampled = false;  ///< the pooled draws were resampled by PSIS
  bool stopped = false;
  /// A stop came before any path found an approximation: no draws.
  bool stopped_before_draws = false;
  std::vector<std::string> names;  ///< the outputs (Stan CSV names)
  Rows rows;
  std::vector<double> log_p, log_q;
  std::vector<io::SummaryRow> summary;
  /// The summary document with "pathfinder": what --summary-json writes and the project
  /// stores.
  nlohmann::ordered_json document;
};

/// @throws ArgumentError (ReportedError for a compiler's report) for a model that cannot
/// run, or when every path fails, saying why; store::ProjectError. A run that started is
/// recorded as failed first.
PathfinderRunResult run_pathfinder(const RunSpec& spec, const RunObservers& observers);

}  // namespace variate::services
