#pragma once
// Running a command line made of the commands in this folder: `variate`'s and an exported
// program's main do it the same way.

#include <CLI/CLI.hpp>

namespace variate::cli {

/// Parses `argv` with `app` and runs the command it names, whose callback sets
/// `exit_code`; without arguments, prints the help. A parse error exits as CLI11 does
/// (its message and code); an error from the engine or LibTorch is printed as
/// "error: ..." and gives 1. A write past the file-size limit is an error, not SIGXFSZ.
int run_command_line(CLI::App& app, int argc, char** argv, const int& exit_code);

}  // namespace variate::cli
