#pragma once
// `variate logp MODEL.vmod --data D.json --params P.json [--jacobian]`: the log density
// (all normalizing constants included) and its gradient, as JSON.

#include <CLI/CLI.hpp>

namespace variate::cli {

void add_logp_command(CLI::App& app, int& exit_code);

}  // namespace variate::cli
