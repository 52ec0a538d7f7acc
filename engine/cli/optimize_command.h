#pragma once
// `optimize MODEL --data D [--jacobian | --mle] [--laplace-draws N] [--output DIR
// --summary-json S.json --seed N --iter --history-size --init-alpha --tol-*]`: the posterior
// mode (or the maximum likelihood estimate) by L-BFGS, as CmdStan's `optimize`, with
// optional draws from the Laplace approximation at the mode, as CmdStan's `laplace`.

#include <memory>

#include <CLI/CLI.hpp>

#include "engine/cli/command_run.h"
#include "engine/cli/model_argument.h"

namespace variate::cli {

void add_optimize_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelArgument> model, const Program& program);

}  // namespace variate::cli
