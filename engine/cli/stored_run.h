#pragma once
// A run of a project with its model compiled again on its data set: what `predict
// --project P --run R` and `loo --project P --run R` work on.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "engine/model/compiled_model.h"
#include "engine/store/project.h"

#include "engine/cli/predictive_draws.h"

namespace variate::cli {

struct StoredRun {
  store::RunInfo info;
  /// The run's model version on its data set, on the CPU.
  model::CompiledModel model;
  std::vector<store::ChainDraws> chains;
};

/// The run named `run` (its name, or its id when no run has that name).
/// @throws ArgumentError "project 'P' has no run 'R' (its runs: 1 'run 1', ...)", or for
/// a name several runs have.
store::RunInfo find_run(const store::Project& project, const std::string& run);

/// The run with its model compiled; prints the compiler's report to `errors` and returns
/// nullopt when the stored model or data set no longer compiles.
/// @throws ArgumentError as find_run, or for a run with no draws;
/// store::ProjectError when the project cannot be read.
std::optional<StoredRun> load_stored_run(const store::Project& project, const std::string& run,
                                         std::ostream& errors);

/// Each chain's rows after warmup, chain c (from 0 in the project) numbered c + 1.
std::vector<ChainTable> sampling_tables(const StoredRun& run);

}  // namespace variate::cli
