#pragma once
// `fit MODEL.vmod --data D.json [--method meanfield|fullrank --seed N --output DIR
// --summary-json S.json --iter --tol-rel-obj --eta --output-draws 1000 ...]`: ADVI
// (services/fit.h), with CmdStan's variational output; or, for a model with networks and
// guides, its training by amortized VI (services/train.h).

#include <memory>

#include <CLI/CLI.hpp>

#include "engine/cli/command_run.h"
#include "engine/cli/model_argument.h"

namespace variate::cli {

/// Runs `spec` (ADVI) and reports it as `variate fit` does, with `run`'s outputs;
/// returns the exit code.
/// @throws what services::run_fit throws.
int fit_and_report(const services::RunSpec& spec, const CommandRun& run);

void add_fit_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelArgument> model, const Program& program);

}  // namespace variate::cli
