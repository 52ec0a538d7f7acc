// libvariate-commands.so: every command of `variate`, on .vmod files, with LibTorch behind
// them. `variate` (variate_main.cpp) loads it on first use: the commands that need no
// LibTorch run without it. The commands are the library variate::cli (engine/cli), which
// exported programs run too; with gRPC, the commands of remote workers (worker, jobs,
// attach, cancel) and `--worker` runs.

#include <unistd.h>

#include <climits>
#include <memory>
#include <string>

#include "engine/cli/check_command.h"
#include "engine/cli/command_line.h"
#include "engine/cli/command_run.h"
#include "engine/cli/error_text.h"
#include "engine/cli/export_command.h"
#include "engine/cli/fit_command.h"
#include "engine/cli/logp_command.h"
#include "engine/cli/loo_command.h"
#include "engine/cli/model_argument.h"
#include "engine/cli/optimize_command.h"
#include "engine/cli/pathfinder_command.h"
#include "engine/cli/predict_command.h"
#include "engine/cli/project_loo.h"
#include "engine/cli/sample_command.h"
#include "engine/cli/sbc_command.h"
#include "engine/cli/summary_command.h"

#ifdef VARIATE_WITH_REMOTE
#include "app/variate/job_commands.h"
#include "app/variate/worker_command.h"
#include "engine/remote/worker_inference.h"
#endif

namespace {

// This program's own file: the other ranks of a run on several processes run it.
std::string this_program() {
  char path[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  return length > 0 ? std::string(path, static_cast<size_t>(length)) : std::string();
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int variate_commands_main(int argc, char** argv) {
  namespace cli = variate::cli;
  CLI::App app{cli::kProgramDescription, "variate"};
  app.set_version_flag("--version", cli::version_line());
  int exit_code = 0;
  std::shared_ptr<variate::services::RemoteRunner> remote;  // sample and fit --worker
#ifdef VARIATE_WITH_REMOTE
  remote = std::make_shared<variate::remote::WorkerInference>();
#endif
  const cli::Program program{remote.get(), this_program()};
  const auto model = [] { return std::make_shared<cli::VmodArgument>(); };
  cli::add_check_command(app, exit_code);
  cli::add_logp_command(app, exit_code, model());
  cli::add_sample_command(app, exit_code, model(), program);
  cli::add_fit_command(app, exit_code, model(), program);
  cli::add_optimize_command(app, exit_code, model(), program);
  cli::add_pathfinder_command(app, exit_code, model(), program);
  cli::add_sbc_command(app, exit_code, model(), program);
  cli::add_summary_command(app, exit_code);
  cli::add_predict_command(app, exit_code);
  cli::add_loo_commands(app, exit_code, cli::project_loo());
  cli::add_export_command(app, exit_code);
#ifdef VARIATE_WITH_REMOTE
  variate::app::add_worker_command(app, exit_code);
  variate::app::add_job_commands(app, exit_code, remote);
#endif
  return cli::run_command_line(app, argc, argv, exit_code, cli::error_text);
}
