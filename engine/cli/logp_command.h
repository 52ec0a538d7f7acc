#pragma once
// `logp [MODEL.vmod] --data D.json --params P.json [--jacobian]`: the log density (all
// normalizing constants included) and its gradient, as JSON, for the model of `source`.

#include <memory>

#include <CLI/CLI.hpp>

#include "engine/cli/model_source.h"

namespace variate::cli {

void add_logp_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelSource> source);

}  // namespace variate::cli
