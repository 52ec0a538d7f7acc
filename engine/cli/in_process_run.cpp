#include "engine/cli/in_process_run.h"

#include <CLI/CLI.hpp>

#include "engine/cli/fit_command.h"
#include "engine/cli/sample_command.h"
#include "engine/cli/vmod_source.h"

namespace variate::cli {

int run_in_process(std::vector<std::string> arguments, std::shared_ptr<RemoteInference> remote, RunHooks hooks) {
  int exit_code = 1;
  CLI::App app{"variate", "variate"};
  auto source = std::make_shared<VmodSource>();
  add_sample_command(app, exit_code, source, remote, hooks);
  add_fit_command(app, exit_code, source, remote, hooks);
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  app.parse(static_cast<int>(argv.size()), argv.data());
  return exit_code;
}

}  // namespace variate::cli
