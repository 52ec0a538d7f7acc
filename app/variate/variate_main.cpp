// `variate`: the command-line interface to the engine, on .vmod files. The commands are
// the library variate::cli (engine/cli), which exported programs run too.

#include <memory>
#include <string>

#include <torch/version.h>

#include "engine/cli/check_command.h"
#include "engine/cli/command_line.h"
#include "engine/cli/export_command.h"
#include "engine/cli/fit_command.h"
#include "engine/cli/logp_command.h"
#include "engine/cli/loo_command.h"
#include "engine/cli/optimize_command.h"
#include "engine/cli/pathfinder_command.h"
#include "engine/cli/predict_command.h"
#include "engine/cli/sample_command.h"
#include "engine/cli/summary_command.h"
#include "engine/cli/vmod_source.h"

#include "engine/core/version.h"

#ifdef VARIATE_WITH_REMOTE
#include "engine/remote/remote_commands.h"
#include "engine/remote/worker_command.h"
#include "engine/remote/worker_inference.h"
#endif

int main(int argc, char** argv) {
  namespace cli = variate::cli;
  CLI::App app{"Variate: Bayesian modeling with random variables on LibTorch", "variate"};
  app.set_version_flag("--version",
                       std::string("variate ") + variate::version() + " (LibTorch " +
                           TORCH_VERSION + ")");
  int exit_code = 0;
  std::shared_ptr<cli::RemoteInference> remote;  // sample and fit --worker
#ifdef VARIATE_WITH_REMOTE
  remote = std::make_shared<variate::remote::WorkerInference>();
#endif
  cli::add_check_command(app, exit_code);
  cli::add_logp_command(app, exit_code, std::make_shared<cli::VmodSource>());
  cli::add_sample_command(app, exit_code, std::make_shared<cli::VmodSource>(), remote);
  cli::add_fit_command(app, exit_code, std::make_shared<cli::VmodSource>(), remote);
  cli::add_optimize_command(app, exit_code, std::make_shared<cli::VmodSource>());
  cli::add_pathfinder_command(app, exit_code, std::make_shared<cli::VmodSource>());
  cli::add_summary_command(app, exit_code);
  cli::add_predict_command(app, exit_code);
  cli::add_loo_commands(app, exit_code);
  cli::add_export_command(app, exit_code);
#ifdef VARIATE_WITH_REMOTE
  variate::remote::add_worker_command(app, exit_code);
  variate::remote::add_job_commands(app, exit_code, remote);
#endif
  return cli::run_command_line(app, argc, argv, exit_code);
}
