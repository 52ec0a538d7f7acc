#pragma once
/// `variate sample|fit ...` run inside another command: a worker's job, and `attach`
/// (which reruns a job's command to follow it). The command line is parsed by the same
/// definitions as `variate`'s own, so every option means the same.

#include <memory>
#include <string>
#include <vector>

#include "engine/cli/remote_inference.h"
#include "engine/cli/run_hooks.h"

namespace variate::cli {

/// Runs `arguments` (the program, then "sample" or "fit", then the model and options) on
/// a .vmod model; returns the command's exit code.
/// @throws CLI::ParseError for arguments the command does not take.
int run_in_process(std::vector<std::string> arguments, std::shared_ptr<RemoteInference> remote = nullptr,
                   RunHooks hooks = {});

}  // namespace variate::cli
