#pragma once
/// What the commands that run a method share (sample, fit, optimize, pathfinder): the
/// method's settings as options made from their descriptions, the data, the outputs and
/// the project; the spec they hand the method's service; and how the run's messages reach
/// the terminal. A command's own code only presents what its service returns.

#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "engine/cli/print_error.h"
#include "engine/cli/model_argument.h"
#include "engine/services/run_control.h"
#include "engine/services/run_observers.h"
#include "engine/io/stan_csv_format.h"
#include "engine/services/run_spec.h"

namespace variate::cli {

/// What a program lends its commands' runs.
struct Program {
  /// The client of remote workers; null without gRPC.
  services::RemoteRunner* remote = nullptr;
  /// The `variate` program other ranks run (empty: this one).
  std::string rank_program;
};

/// A command's parsed options, filled by CLI11.
struct CommandRun {
  services::Method method = services::Method::nuts;
  services::Settings settings;
  std::optional<std::string> data;
  std::optional<std::string> output;
  std::optional<std::string> summary_json;
  std::optional<std::string> summary_variables;
  std::optional<std::string> project;
  std::optional<std::string> run_name;
  bool quiet = false;
  std::optional<std::string> rendezvous;
  std::optional<int> world_size;
  std::optional<int> rank;
};

/// Which of the shared options a command has.
struct CommandOptions {
  const char* output_help = nullptr;  ///< --output, with this help; none without
  bool project = false;               ///< --project and --run-name (for a model with text)
  bool across_hosts = false;          ///< --rendezvous, --world-size, --rank
  const char* quiet_help = "No progress lines";
};

/// Declares the model argument, --data, the method's settings and the shared options.
void add_run_options(CLI::App& command, CommandRun& run, ModelArgument& model, const CommandOptions& options);

/// The service's spec for the parsed command.
/// @throws ArgumentError when the model cannot be read.
services::RunSpec run_spec(const CommandRun& run, const ModelArgument& model, const Program& program);

/// The header facts of a CSV file of the run: its model, data file, seed and version.
io::CsvRunInfo csv_run_info(const services::RunSpec& spec, uint64_t seed);

/// Observers that print the run's notes ("note: ...") and messages to `err`, with
/// `control` (Ctrl-C) stopping it.
services::RunObservers terminal_observers(std::ostream& err, const services::RunControl* control);

}  // namespace variate::cli
