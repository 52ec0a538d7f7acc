#pragma once
// Running a command line made of the commands in this folder: `variate`'s and an exported
// program's main do it the same way.

#include <exception>
#include <string>

#include <CLI/CLI.hpp>

namespace variate::cli {

/// `variate --help`'s first line.
inline constexpr const char* kProgramDescription = "Variate: Bayesian modeling with random variables on LibTorch";
/// `variate --version`: "variate 0.1.0 (LibTorch 1.13.1)".
std::string version_line();

/// What an error that reaches the command line says after "error: ".
using ErrorText = std::string (*)(const std::exception& error);

/// e.what(): the command line's own errors need no tensor library to word them.
std::string plain_error_text(const std::exception& error);

/// Parses `argv` with `app` and runs the command it names, whose callback sets
/// `exit_code`; without arguments, prints the help. A parse error exits as CLI11 does
/// (its message and code); any other error is printed as "error: " + `error_text` (for
/// commands that run LibTorch, engine/cli/error_text.h's, which leaves out its backtraces)
/// and gives 1. A write past the file-size limit is an error, not SIGXFSZ.
int run_command_line(CLI::App& app, int argc, char** argv, const int& exit_code,
                     ErrorText error_text = plain_error_text);

}  // namespace variate::cli
