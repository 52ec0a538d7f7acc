#pragma once
// `fit [MODEL.vmod] --data D.json --method meanfield|fullrank [--seed N --output DIR
// --summary-json S.json --iter --tol-rel-obj --eta --grad-samples --output-draws 1000]`:
// ADVI, with CmdStan's variational output, on the model of `source`.

#include <memory>

#include <CLI/CLI.hpp>

#include "engine/cli/model_source.h"
#include "engine/cli/remote_inference.h"
#include "engine/cli/run_hooks.h"

namespace variate::cli {

/// With `remote`, `--worker` runs it there (a model with text only); `hooks` are for a
/// program that runs the command in-process (a worker's jobs).
void add_fit_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelSource> source,
                     std::shared_ptr<RemoteInference> remote = nullptr, RunHooks hooks = {});

}  // namespace variate::cli
