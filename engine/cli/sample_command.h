#pragma once
// `sample MODEL.vmod --data D.json [--chains 4 --warmup 1000 --draws 1000 --seed N
// --output DIR --summary-json S.json --project P ...]`: NUTS (services/sample.h), its
// settings the descriptions' options; prints the summary as CmdStan's stansummary does.

#include <memory>

#include <CLI/CLI.hpp>

#include "engine/cli/command_run.h"
#include "engine/cli/model_argument.h"

namespace variate::cli {

/// Runs `spec` (NUTS) and reports it as `variate sample` does, with `run`'s outputs
/// (--output, --summary-json, --quiet); returns the exit code (130 after Ctrl-C).
int sample_and_report(const services::RunSpec& spec, const CommandRun& run);

void add_sample_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelArgument> model, const Program& program);

}  // namespace variate::cli
