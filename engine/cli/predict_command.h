#pragma once
// `predict --project P.variate --run R --output DIR [--seed N]` and
// `predict MODEL.vmod [--data D.json] FILE.csv... --output DIR [--seed N]`: the posterior
// predictive draws (NAME_rep.1, ...) and pointwise log likelihood (log_lik.1, ...) of an
// existing run, one Stan CSV file per chain (DIR/chain_1.csv, ...) holding the run's
// columns and then these, as CmdStan's standalone generated quantities. The seed defaults
// to the run's, so the values equal those `sample --predict` writes for the same run.

#include <CLI/CLI.hpp>

namespace variate::cli {

void add_predict_command(CLI::App& app, int& exit_code);

}  // namespace variate::cli
