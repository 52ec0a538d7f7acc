#pragma once
/// The client's commands for jobs on a worker:
///   variate jobs --worker HOST:PORT --token-file F [--tls-ca CA]
///   variate attach JOB --worker ... [--output DIR --summary-json S --project P --quiet]
///   variate cancel JOB --worker ...
/// `attach` fetches the job's model and data and follows it from its first event, writing
/// what `sample|fit --worker` would have written; Ctrl-C detaches again.

#include <memory>

#include <CLI/CLI.hpp>

#include "engine/services/remote_runner.h"

namespace variate::app {

void add_job_commands(CLI::App& app, int& exit_code, std::shared_ptr<services::RemoteRunner> remote);

}  // namespace variate::app
