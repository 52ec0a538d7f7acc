// `variate`: the command-line interface to the engine.

#include <exception>
#include <iostream>

#include <CLI/CLI.hpp>
#include <c10/util/Exception.h>
#include <torch/version.h>

#include "cli/check_command.h"
#include "cli/export_command.h"
#include "cli/fit_command.h"
#include "cli/logp_command.h"
#include "cli/sample_command.h"
#include "cli/summary_command.h"
#include "version.h"

int main(int argc, char** argv) {
  CLI::App app{"Variate: Bayesian modeling with random variables on LibTorch", "variate"};
  app.set_version_flag("--version",
                       std::string("variate ") + VARIATE_VERSION + " (LibTorch " +
                           TORCH_VERSION + ")");
  int exit_code = 0;
  variate::cli::add_check_command(app, exit_code);
  variate::cli::add_logp_command(app, exit_code);
  variate::cli::add_sample_command(app, exit_code);
  variate::cli::add_fit_command(app, exit_code);
  variate::cli::add_summary_command(app, exit_code);
  variate::cli::add_export_command(app, exit_code);
  try {
    CLI11_PARSE(app, argc, argv);
  } catch (const c10::Error& e) {  // a numerical library failure is reported, not a crash
    std::cerr << "error: " << e.what_without_backtrace() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  if (argc == 1) std::cout << app.help();
  return exit_code;
}
