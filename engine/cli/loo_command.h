#pragma once
// `loo FILE.csv... [--summary-json S.json]`: PSIS-LOO from the log_lik columns (log_lik.1,
// log_lik.2, ...; one per observation) of Stan CSV files, one per chain, as R's
// loo::loo(log_lik, r_eff = relative_eff(...)) computes it.
// `loo --project P.variate --run R`: the same for a stored run, its log likelihood
// computed from its draws after warmup with its model and data set
// (workflow/posterior_predictive.h), the result stored with the run (Project::set_loo).
// `compare NAME=FILE.csv[,FILE.csv...]... [--summary-json S.json]`: models ranked by
// elpd_loo with elpd_diff and se_diff, as loo::loo_compare; `compare --project P RUN RUN...`
// ranks stored runs by their stored LOO (computed and stored first where a run has none).
// compare_inputs.h says which arguments name which chains or runs.

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "engine/diagnostics/loo.h"

namespace variate::cli {

/// What `loo --project` and `compare --project` need from a project (project_loo.h gives
/// it). Without it the commands read files only: `variate` runs those without LibTorch and
/// hands a command line with --project to its commands' library.
struct ProjectLoo {
  /// A run's LOO and the draws it is from; computed from the run's draws, model and data,
  /// and stored with the run, when it has none.
  std::function<std::pair<diagnostics::LooResult, size_t>(const std::string& project, const std::string& run)> run_loo;
  /// The runs the arguments name (names, ids, globs of names), each once in the order first
  /// named, with their LOO.
  std::function<std::vector<std::pair<std::string, diagnostics::LooResult>>(const std::string& project,
                                                                            const std::vector<std::string>& runs)>
      compared_runs;
};

void add_loo_commands(CLI::App& app, int& exit_code, ProjectLoo project = {});

}  // namespace variate::cli
