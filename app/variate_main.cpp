// `variate`: the command-line interface to the engine.

#include <iostream>

#include <CLI/CLI.hpp>
#include <torch/version.h>

#include "version.h"

int main(int argc, char** argv) {
  CLI::App app{"Variate: Bayesian modeling with random variables on LibTorch", "variate"};
  app.set_version_flag("--version",
                       std::string("variate ") + VARIATE_VERSION + " (LibTorch " +
                           TORCH_VERSION + ")");
  app.require_subcommand(0);
  CLI11_PARSE(app, argc, argv);
  if (argc == 1) std::cout << app.help();
  return 0;
}
