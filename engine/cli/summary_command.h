#pragma once
// `variate summary FILE.csv... [--summary-json S.json]`: the posterior summary of Stan CSV
// files, one per chain — Variate's or CmdStan's.

#include <CLI/CLI.hpp>

namespace variate::cli {

void add_summary_command(CLI::App& app, int& exit_code);

}  // namespace variate::cli
