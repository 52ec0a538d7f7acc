#include "engine/services/predict.h"

#include <algorithm>

#include "engine/core/argument_error.h"
#include "engine/io/data_file.h"
#include "engine/io/stan_csv_reader.h"
#include "engine/services/bound_run.h"
#include "engine/services/run_config.h"
#include "engine/services/run_error.h"
#include "engine/services/vmod_source.h"

namespace variate::services {
namespace {

// The predictive of `model` at each chain's draws, on the tape when the run's `choice`
// put its columns there.
void predict(const model::CompiledModel& model, const CompileChoice& choice, Prediction& p) {
  const PredictiveColumns predictive = make_predictive(model, columns_on_tape(choice));
  p.observed = predictive.observed();
  p.replicated_names = predictive.replicated_names(NameStyle::StanCsv);
  p.log_lik_names = predictive.log_lik_names(NameStyle::StanCsv);
  std::vector<std::string> names = p.replicated_names;
  names.insert(names.end(), p.log_lik_names.begin(), p.log_lik_names.end());
  for (const auto& chain : p.chains) {
    const auto clash = std::find_first_of(chain.columns.begin(), chain.columns.end(), names.begin(), names.end());
    if (clash != chain.columns.end()) {
      throw ArgumentError(chain.where + " already has a column '" + *clash + "' (written by sample --predict?)");
    }
  }
  p.predicted = predict_chains(predictive, parameter_names(model), p.chains, p.seed);
}

}  // namespace

Prediction predict_stored_run(const store::Project& project, const std::string& run, std::optional<uint64_t> seed,
                              const std::optional<std::string>& backend) {
  StoredRun stored = load_stored_run(project, run);
  if (stored.info.method != store::RunMethod::nuts) {
    throw ArgumentError("run '" + stored.info.name + "' is a " + store::to_string(stored.info.method) +
                        " run: posterior predictive checks need a NUTS run's draws");
  }
  Prediction p;
  p.model_name = project.model_version(stored.info.model_version_id).model_name;
  if (stored.info.data_set_id) {
    const store::DataSet set = project.data_set(*stored.info.data_set_id);
    p.data_name = set.name;
    p.data = io::parse_json_data(set.json_text, set.name);
  }
  p.fitted_params = project.path() + ", run '" + stored.info.name + "'";
  p.seed = seed.value_or(stored.info.seed);
  p.run_id = stored.info.id;
  p.chains = sampling_tables(stored);
  CompileChoice choice = compile_choice(read_run_config(Method::nuts, stored.info.config_json).settings);
  if (backend) choice.backend = *backend;
  predict(stored.model, choice, p);
  return p;
}

Prediction predict_files(const std::string& model_file, const std::optional<std::string>& data_file,
                         const std::vector<std::string>& files, std::optional<uint64_t> seed,
                         const std::string& backend) {
  Prediction p;
  p.model_name = model_file;
  p.data_name = data_file.value_or("");
  if (data_file) p.data = io::read_data_file(*data_file);
  const model::CompileResult compiled = VmodSource::from_file(model_file).compile(data_file ? &p.data : nullptr, {});
  std::optional<uint64_t> recorded;
  for (size_t i = 0; i < files.size(); ++i) {
    io::StanCsv csv = io::read_stan_csv(files[i]);
    const auto id = csv.config.find("id");
    const int64_t chain_id = id != csv.config.end() ? std::stoll(id->second) : static_cast<int64_t>(i + 1);
    p.chains.push_back({files[i], chain_id, std::move(csv.columns), std::move(csv.draws)});
    p.fitted_params += (i == 0 ? "" : ",") + files[i];
    const auto file_seed = csv.config.find("random.seed");
    if (i == 0 && file_seed != csv.config.end()) recorded = std::stoull(file_seed->second);
  }
  if (!seed && !recorded) throw ArgumentError(files.front() + " records no seed (random seed = ...): give --seed");
  p.seed = seed ? *seed : *recorded;
  predict(*compiled.model, {backend, "float64", "cpu"}, p);
  return p;
}

}  // namespace variate::services
