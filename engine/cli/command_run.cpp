#include "engine/cli/command_run.h"

#include "engine/cli/path_checks.h"
#include "engine/cli/setting_options.h"
#include "engine/cli/summary_variables.h"
#include "engine/core/version.h"
#include "engine/services/run_error.h"

namespace variate::cli {

void add_run_options(CLI::App& command, CommandRun& run, ModelArgument& model, const CommandOptions& options) {
  model.add_to(command);
  command.add_option("--data", run.data, "Data file (CmdStan JSON or CSV)");
  std::set<std::string> left_out = model.settings_left_out();
  if (!model.has_text()) left_out.insert({"worker", "token_file", "tls_ca", "heartbeat_timeout"});
  add_setting_options(command, run.method, run.settings, left_out);
  if (options.output_help) command.add_option("--output", run.output, options.output_help)->check(output_folder_check());
  command.add_option("--summary-json", run.summary_json, "Write the summary as JSON")->check(writable_file_check());
  add_summary_variables_option(command, run.summary_variables);
  if (options.project && model.has_text()) {  // a project records the model's text
    command.add_option("--project", run.project, "Record the run into this project file (*.variate; created if absent)");
    command.add_option("--run-name", run.run_name, "Name of the run in the project (default: run N)");
  }
  if (options.across_hosts && model.has_text()) {  // the other processes are given the text
    command.add_option("--rendezvous", run.rendezvous,
                       "Across hosts: HOST:PORT where rank 0 serves the rendezvous (port 0: one the system picks, "
                       "printed), or file:PATH on a shared file system (PATH must not exist yet)");
    command.add_option("--world-size", run.world_size, "Across hosts: the number of processes")
        ->check(CLI::PositiveNumber);
    command.add_option("--rank", run.rank, "Across hosts: this process's rank, 0 to world size - 1")
        ->check(CLI::NonNegativeNumber);
  }
  command.add_flag("--quiet", run.quiet, options.quiet_help);
}

services::RunSpec run_spec(const CommandRun& run, const ModelArgument& model, const Program& program) {
  services::RunSpec spec;
  spec.method = run.method;
  spec.model = model.source();
  if (run.data) spec.data = services::DataInput::file(*run.data);
  spec.settings = run.settings;
  spec.record.project = run.project;
  spec.record.run_name = run.run_name.value_or("");
  spec.rendezvous = run.rendezvous;
  spec.world_size = run.world_size;
  spec.rank = run.rank;
  spec.rank_program = program.rank_program;
  spec.remote = program.remote;
  return spec;
}

io::CsvRunInfo csv_run_info(const services::RunSpec& spec, uint64_t seed) {
  io::CsvRunInfo run;
  run.model = spec.model->name();
  run.data_file = spec.data.name;
  run.seed = seed;
  run.variate_version = variate::version();
  return run;
}

services::RunObservers terminal_observers(std::ostream& err, const services::RunControl* control) {
  services::RunObservers observers;
  observers.note = [&err](const std::string& text) { err << "note: " << text << "\n" << std::flush; };
  observers.info = [&err](const std::string& text) { err << text << "\n" << std::flush; };
  observers.control = control;
  return observers;
}

}  // namespace variate::cli
