#include "variate/cli/exported_program.h"

#include <memory>
#include <string>

#include <torch/version.h>

#include "variate/cli/command_line.h"
#include "variate/cli/fit_command.h"
#include "variate/cli/logp_command.h"
#include "variate/cli/optimize_command.h"
#include "variate/cli/pathfinder_command.h"
#include "variate/cli/sample_command.h"
#include "version.h"

namespace variate::cli {

int run_exported_program(int argc, char** argv, const CppModel& model) {
  const auto source = std::make_shared<CppModelSource>(model);
  CLI::App app{"The model " + model.name + " of " + model.origin +
                   ", exported by `variate export`: Variate's sample, fit, logp, optimize and pathfinder on it",
               model.name};
  app.set_version_flag("--version", source->name() + ", on Variate " + VARIATE_VERSION +
                                        " (LibTorch " + TORCH_VERSION + ")");
  int exit_code = 0;
  add_sample_command(app, exit_code, source);
  add_fit_command(app, exit_code, source);
  add_logp_command(app, exit_code, source);
  add_optimize_command(app, exit_code, source);
  add_pathfinder_command(app, exit_code, source);
  return run_command_line(app, argc, argv, exit_code);
}

}  // namespace variate::cli
