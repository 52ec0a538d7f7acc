#include "engine/cli/exported_program.h"

#include <memory>
#include <string>

#include <torch/version.h>

#include "engine/cli/command_line.h"
#include "engine/cli/error_text.h"
#include "engine/cli/fit_command.h"
#include "engine/cli/logp_command.h"
#include "engine/cli/optimize_command.h"
#include "engine/cli/pathfinder_command.h"
#include "engine/cli/sample_command.h"
#include "engine/core/version.h"

namespace variate::cli {

int run_exported_program(int argc, char** argv, const CppModel& model) {
  const auto argument = std::make_shared<CppModelArgument>(model);
  const auto& source = argument->source();
  CLI::App app{"The model " + model.name + " of " + model.origin +
                   ", exported by `variate export`: Variate's sample, fit, logp, optimize and pathfinder on it",
               model.name};
  app.set_version_flag("--version", source->name() + ", on Variate " + variate::version() +
                                        " (LibTorch " + TORCH_VERSION + ")");
  int exit_code = 0;
  const Program program;  // one process, here
  add_sample_command(app, exit_code, argument, program);
  add_fit_command(app, exit_code, argument, program);
  add_logp_command(app, exit_code, argument);
  add_optimize_command(app, exit_code, argument, program);
  add_pathfinder_command(app, exit_code, argument, program);
  return run_command_line(app, argc, argv, exit_code, error_text);
}

}  // namespace variate::cli
