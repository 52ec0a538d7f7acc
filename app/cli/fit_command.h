#pragma once
// `variate fit MODEL.vmod --data D.json --method meanfield|fullrank [--seed N --output DIR
// --summary-json S.json --iter --tol-rel-obj --eta --grad-samples --output-draws 1000]`:
// ADVI, with CmdStan's variational output.

#include <CLI/CLI.hpp>

namespace variate::cli {

void add_fit_command(CLI::App& app, int& exit_code);

}  // namespace variate::cli
