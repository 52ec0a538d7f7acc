#pragma once
/// The whole of an exported program's main: `variate export` writes model.h (the model in
/// C++) and a main.cpp that hands its two functions to this library, as CmdStan's main
/// hands its model to CmdStan:
///
///   #include "engine/cli/exported_program.h"
///   #include "model.h"
///
///   int main(int argc, char** argv) {
///     return variate::cli::run_exported_program(
///         argc, argv, {"eight_schools", "model.vmod", eight_schools_data, eight_schools});
///   }
///
/// The program's commands are `variate`'s, on that model: `sample` (NUTS; with the same
/// seed it draws what `variate sample` draws), `fit` (ADVI) and `logp`, with their options,
/// outputs and messages; `--help` lists them.

// The whole of ATen, for model.h: its C++ uses tensor-with-scalar operators
// (`d["g"] - 1`, `m[K - 1] * K`) that the engine's own headers do not bring in.
#include <ATen/ATen.h>

#include "engine/cli/cpp_model_source.h"

namespace variate::cli {

/// Runs the command of `argv` on `model`; returns the program's exit code.
int run_exported_program(int argc, char** argv, const CppModel& model);

}  // namespace variate::cli
