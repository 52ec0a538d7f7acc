#pragma once
// `sample [MODEL.vmod] --data D.json [--chains 4 --warmup 1000 --draws 1000 --seed N
// --output DIR --summary-json S.json --threads N --device cpu ...]`: NUTS with Stan's
// warmup, on the model of `source`.

#include <memory>

#include <CLI/CLI.hpp>

#include "variate/cli/model_source.h"

namespace variate::cli {

void add_sample_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelSource> source);

}  // namespace variate::cli
