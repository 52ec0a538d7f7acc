#include "engine/cli/predict_command.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "engine/core/argument_error.h"
#include "engine/io/method_csv_writer.h"
#include "engine/io/stan_csv_reader.h"

#include "engine/cli/model_input.h"
#include "engine/cli/predictive_draws.h"
#include "engine/cli/stored_run.h"
#include "engine/core/version.h"

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
};

// The draws a prediction starts from, whichever way they were given.
struct PredictInput {
  std::string model_name;
  std::string data_file;
  std::string fitted_params;  // CmdStan's name for where the draws come from
  std::optional<model::CompiledModel> model;
  std::vector<ChainTable> chains;
  std::optional<uint64_t> seed;  // the run's
};

std::optional<PredictInput> from_project(const PredictOptions& o) {
  const store::Project project(*o.project);
  std::optional<StoredRun> run = load_stored_run(project, *o.run, std::cerr);
  if (!run) return std::nullopt;
  PredictInput input{project.model_version(run->info.model_version_id).model_name, "",
                     *o.project + ", run '" + run->info.name + "'", std::nullopt, sampling_tables(*run),
                     run->info.seed};
  if (run->info.data_set_id) input.data_file = project.data_set(*run->info.data_set_id).name;
  input.model.emplace(std::move(run->model));
  return input;
}

std::optional<PredictInput> from_files(const PredictOptions& o) {
  auto compiled = load_model(*o.model, o.data, std::cerr);
  if (!compiled || !compiled->model) return std::nullopt;
  PredictInput input{*o.model, o.data.value_or(""), "", std::move(compiled->model), {}, std::nullopt};
  for (size_t i = 0; i < o.files.size(); ++i) {
    io::StanCsv csv = io::read_stan_csv(o.files[i]);
    const auto id = csv.config.find("id");
    const int64_t chain_id = id != csv.config.end() ? std::stoll(id->second) : static_cast<int64_t>(i + 1);
    input.chains.push_back({o.files[i], chain_id, std::move(csv.columns), std::move(csv.draws)});
    input.fitted_params += (i == 0 ? "" : ",") + o.files[i];
    const auto seed = csv.config.find("random.seed");
    if (i == 0 && seed != csv.config.end()) input.seed = std::stoull(seed->second);
  }
  return input;
}

// A project's errors (store::ProjectError) reach run_command_line, which prints them.
int run_predict(const PredictOptions& o) {
  try {
    if (o.project.has_value() == o.model.has_value() || o.project.has_value() != o.run.has_value() ||
        (o.model && o.files.empty())) {
      std::cerr << "error: predict takes --project P --run R, or MODEL.vmod [--data D] and the run's Stan CSV files\n";
      return 1;
    }
    std::optional<PredictInput> input = o.project ? from_project(o) : from_files(o);
    if (!input) return 1;
    if (!o.seed && !input->seed) {
      std::cerr << "error: " << o.files[0] << " records no seed (random seed = ...): give --seed\n";
      return 1;
    }
    const uint64_t seed = o.seed.value_or(*input->seed);
    const workflow::PosteriorPredictive predictive = make_predictive(*input->model);
    std::vector<std::string> names = predictive.replicated_names(NameStyle::StanCsv);
    const auto log_lik_names = predictive.log_lik_names(NameStyle::StanCsv);
    names.insert(names.end(), log_lik_names.begin(), log_lik_names.end());
    for (const auto& chain : input->chains) {
      const auto clash = std::find_first_of(chain.columns.begin(), chain.columns.end(), names.begin(), names.end());
      if (clash != chain.columns.end()) {
        throw ArgumentError(chain.where + " already has a column '" + *clash + "' (written by sample --predict?)");
      }
    }
    const auto predicted = predict_chains(predictive, parameter_names(*input->model), input->chains, seed);

    std::filesystem::create_directories(o.output);
    const std::vector<std::string> method_lines = {io::config_line(0, "method", "generate_quantities", false),
                                                   "  generate_quantities",
                                                   io::config_line(4, "fitted_params", input->fitted_params, false)};
    for (size_t c = 0; c < input->chains.size(); ++c) {
      const ChainTable& chain = input->chains[c];
      io::CsvRunInfo run;
      run.model = input->model_name;
      run.data_file = input->data_file;
      run.seed = seed;
      run.chain_id = chain.chain_id;
      run.variate_version = variate::version();
      const std::string path =
          (std::filesystem::path(o.output) / ("chain_" + std::to_string(chain.chain_id) + ".csv")).string();
      io::MethodCsvWriter csv(path, run, method_lines, chain.columns, names);
      for (size_t d = 0; d < chain.rows.size(); ++d) {
        std::vector<double> values = predicted[c].replicated[d];
        values.insert(values.end(), predicted[c].log_lik[d].begin(), predicted[c].log_lik[d].end());
        csv.write_row(chain.rows[d], values);
      }
      csv.finish();
      std::cout << "Wrote " << path << ": " << chain.rows.size() << " draws\n";
    }
    std::cout << "Each draw has " << predictive.replicated_names(NameStyle::StanCsv).size() << " replicated values (";
    for (size_t v = 0; v < predictive.observed().size(); ++v) {
      std::cout << (v ? ", " : "") << predictive.observed()[v].name << "_rep";
    }
    std::cout << ") and " << log_lik_names.size() << " log_lik columns; seed " << seed << "\n";
    return 0;
  } catch (const ArgumentError& e) {
    std::cerr << "error: " << e.what() << "\n";
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
      ->required();
  command->add_option("--seed", o->seed, "Random seed of the replicated draws (default: the run's)");
  command->callback([o, &exit_code] { exit_code = run_predict(*o); });
}

}  // namespace variate::cli
