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

#include <CLI/CLI.hpp>

namespace variate::cli {

void add_loo_commands(CLI::App& app, int& exit_code);

}  // namespace variate::cli
