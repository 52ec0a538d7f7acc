#pragma once
// `logp [MODEL.vmod] --data D.json --params P.json [--jacobian]`: the log density (all
// normalizing constants included) and its gradient, as JSON, for the model `model` names.

#include <memory>

#include <CLI/CLI.hpp>

#include "engine/cli/model_argument.h"

namespace variate::cli {

void add_logp_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelArgument> model);

}  // namespace variate::cli
