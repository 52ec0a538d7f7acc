#pragma once
/// A run of a project with its model compiled again on its data set: what a prediction
/// and a LOO of a stored run work on (`variate predict|loo --project P --run R`, the
/// studio's predictive check and LOO panels).

#include <optional>
#include <string>
#include <vector>

#include "engine/model/compiled_model.h"
#include "engine/store/project.h"

#include "engine/services/predictive_draws.h"

namespace variate::services {

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

/// The run with its model compiled.
/// @throws ReportedError with the compiler's report when the stored model or data set no
/// longer compiles; ArgumentError as find_run, or for a run with no draws;
/// store::ProjectError when the project cannot be read.
StoredRun load_stored_run(const store::Project& project, const std::string& run);

/// Each chain's rows after warmup, chain c (from 0 in the project) numbered c + 1.
std::vector<ChainTable> sampling_tables(const StoredRun& run);

}  // namespace variate::services
