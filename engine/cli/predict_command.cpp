#include "engine/cli/predict_command.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "engine/core/argument_error.h"
#include "engine/io/method_csv_writer.h"

#include "engine/cli/command_run.h"
#include "engine/cli/path_checks.h"
#include "engine/cli/setting_options.h"
#include "engine/core/version.h"
#include "engine/services/predict.h"

namespace variate::cli {
namespace {

struct PredictOptions {
  std::optional<std::string> project;
  std::optional<std::string> run;
  std::optional<std::string> model;
  std::optional<std::string> data;
  std::vector<std::string> files;
  std::string output;
  std::optional<uint64_t> seed;
  services::Settings settings;  // --backend
};

// Each chain's file: the run's columns, then NAME_rep and log_lik (CmdStan's
// generate_quantities output).
void write_chains(const services::Prediction& p, const std::string& output) {
  std::vector<std::string> names = p.replicated_names;
  names.insert(names.end(), p.log_lik_names.begin(), p.log_lik_names.end());
  std::filesystem::create_directories(output);
  const std::vector<std::string> method_lines = {io::config_line(0, "method", "generate_quantities", false),
                                                 "  generate_quantities",
                                                 io::config_line(4, "fitted_params", p.fitted_params, false)};
  for (size_t c = 0; c < p.chains.size(); ++c) {
    const services::ChainTable& chain = p.chains[c];
    io::CsvRunInfo run;
    run.model = p.model_name;
    run.data_file = p.data_name;
    run.seed = p.seed;
    run.chain_id = chain.chain_id;
    run.variate_version = variate::version();
    const std::string path = (std::filesystem::path(output) / ("chain_" + std::to_string(chain.chain_id) + ".csv")).string();
    io::MethodCsvWriter csv(path, run, method_lines, chain.columns, names);
    for (size_t d = 0; d < chain.rows.size(); ++d) {
      std::vector<double> values = p.predicted[c].replicated[d];
      values.insert(values.end(), p.predicted[c].log_lik[d].begin(), p.predicted[c].log_lik[d].end());
      csv.write_row(chain.rows[d], values);
    }
    csv.finish();
    std::cout << "Wrote " << path << ": " << chain.rows.size() << " draws\n";
  }
}

int run_predict(const PredictOptions& o) {
  try {
    if (o.project.has_value() == o.model.has_value() || o.project.has_value() != o.run.has_value() ||
        (o.model && o.files.empty())) {
      std::cerr << "error: predict takes --project P --run R, or MODEL.vmod [--data D] and the run's Stan CSV files\n";
      return 1;
    }
    // A stored run's own backend unless one is given.
    const std::string backend = o.settings.get(services::setting::backend);
    const bool given = o.settings.given(services::setting::backend.descriptor());
    const services::Prediction p = o.project
                                       ? services::predict_stored_run(store::Project(*o.project), *o.run, o.seed,
                                                                      given ? std::optional(backend) : std::nullopt)
                                       : services::predict_files(*o.model, o.data, o.files, o.seed, backend);
    write_chains(p, o.output);
    std::cout << "Each draw has " << p.replicated_names.size() << " replicated values (";
    for (size_t v = 0; v < p.observed.size(); ++v) std::cout << (v ? ", " : "") << p.observed[v].name << "_rep";
    std::cout << ") and " << p.log_lik_names.size() << " log_lik columns; seed " << p.seed << "\n";
    return 0;
  } catch (const std::exception& e) {
    print_error(std::cerr, e);
    return 1;
  }
}

}  // namespace

void add_predict_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<PredictOptions>();
  CLI::App* command = app.add_subcommand(
      "predict", "Posterior predictive draws (NAME_rep) and pointwise log likelihood (log_lik) of an existing run");
  command->add_option("--project", o->project, "The project file (*.variate) that holds the run")->check(CLI::ExistingFile);
  command->add_option("--run", o->run, "The run in the project: its name or id");
  command->add_option("model", o->model, "The model (.vmod) of the Stan CSV files")->check(CLI::ExistingFile);
  command->add_option("files", o->files, "The run's Stan CSV files, one per chain")->check(CLI::ExistingFile);
  command->add_option("--data", o->data, "Data file (CmdStan JSON or CSV) of the model")->check(CLI::ExistingFile);
  command->add_option("--output", o->output, "Write chain_1.csv, ... (the run's columns, then NAME_rep and log_lik) here")
      ->required()
      ->check(output_folder_check());
  command->add_option("--seed", o->seed, "Random seed of the replicated draws (default: the run's)");
  // As the run's: with `torch` its replications are LibTorch's, as `sample --backend torch --predict` drew them.
  add_setting_option(*command, services::setting::backend.descriptor(), o->settings);
  command->callback([o, &exit_code] { exit_code = run_predict(*o); });
}

}  // namespace variate::cli
