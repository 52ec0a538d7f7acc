#pragma once
// `sample [MODEL.vmod] --data D.json [--chains 4 --warmup 1000 --draws 1000 --seed N
// --output DIR --summary-json S.json --threads N --device cpu ...]`: NUTS with Stan's
// warmup, on the model of `source`.

#include <memory>

#include <CLI/CLI.hpp>

#include "engine/cli/model_source.h"
#include "engine/cli/remote_inference.h"
#include "engine/cli/run_hooks.h"

namespace variate::cli {

/// With `remote`, `--worker` runs it there (a model with text only); `hooks` are for a
/// program that runs the command in-process (a worker's jobs).
void add_sample_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelSource> source,
                        std::shared_ptr<RemoteInference> remote = nullptr, RunHooks hooks = {});

}  // namespace variate::cli
