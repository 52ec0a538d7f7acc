#pragma once
// `pathfinder MODEL --data D [--num-paths 4 --draws 1000 --psis-draws 1000 --elbo-draws 25
// --output DIR --summary-json S.json --seed N]`: Pathfinder's approximate draws, with
// CmdStan's pathfinder CSV (lp_approx__, lp__, parameters) and the PSIS k-hat of p/q.

#include <memory>

#include <CLI/CLI.hpp>

#include "engine/cli/command_run.h"
#include "engine/cli/model_argument.h"

namespace variate::cli {

void add_pathfinder_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelArgument> model, const Program& program);

}  // namespace variate::cli
