#pragma once
// `variate check MODEL.vmod [--data D.json]`: parse and check; exit 1 on error.

#include <CLI/CLI.hpp>

namespace variate::cli {

void add_check_command(CLI::App& app, int& exit_code);

}  // namespace variate::cli
