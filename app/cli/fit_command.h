#pragma once
// `fit [MODEL.vmod] --data D.json --method meanfield|fullrank [--seed N --output DIR
// --summary-json S.json --iter --tol-rel-obj --eta --grad-samples --output-draws 1000]`:
// ADVI, with CmdStan's variational output, on the model of `source`.

#include <memory>

#include <CLI/CLI.hpp>

#include "variate/cli/model_source.h"

namespace variate::cli {

void add_fit_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelSource> source);

}  // namespace variate::cli
