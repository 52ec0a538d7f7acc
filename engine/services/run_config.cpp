#include "engine/services/run_config.h"

#include "engine/core/argument_error.h"
#include "engine/services/setting_table.h"
#include "engine/store/project_records.h"

namespace variate::services {

Method fit_method(const Settings& settings) { return store::run_method_from_string(settings.get(setting::fit)); }

nlohmann::ordered_json run_config_json(Method method, const Settings& settings, const RunFacts& facts,
                                       const std::optional<JobRef>& job) {
  nlohmann::ordered_json config = {{"method", store::to_string(method)}};
  config.update(settings.json(method));
  if (method == Method::sbc) config.update(settings.json(fit_method(settings)));  // each replication's fit's
  if (!facts.backend.empty()) config["backend_used"] = facts.backend;
  if (!facts.backend_note.empty()) config["backend_note"] = facts.backend_note;
  config["ranks"] = facts.ranks;
  if (facts.reparam_pilot > 0) config["reparam_pilot"] = facts.reparam_pilot;
  if (job) {
    config["job"] = job->id;
    if (!job->offsets.empty()) config["job_offsets"] = job->offsets;
  }
  return config;
}

StoredConfig read_run_config(Method method, const std::string& config_json) {
  StoredConfig stored;
  stored.method = method;
  const nlohmann::json config = nlohmann::json::parse(config_json, nullptr, false);
  if (!config.is_object()) {
    stored.problems.push_back("the configuration is not a JSON object");
    return stored;
  }
  stored.settings.read_json(method, config, &stored.problems);
  if (method == Method::sbc) stored.settings.read_json(fit_method(stored.settings), config, &stored.problems);
  stored.facts.backend = config.value("backend_used", std::string());
  stored.facts.backend_note = config.value("backend_note", std::string());
  stored.facts.ranks = config.value("ranks", 1);
  if (config.contains("reparam_pilot") && config["reparam_pilot"].is_number_integer()) {
    stored.facts.reparam_pilot = config["reparam_pilot"];
  }
  if (config.contains("device") && config["device"].is_string()) stored.facts.device = config["device"];
  // An older studio's record of a run on a worker: {"worker": {"address", "token_file",
  // "ca_file", "job", "offsets"}}.
  if (config.contains("worker") && config["worker"].is_object()) {
    const nlohmann::json& worker = config["worker"];
    const auto text = [&](const char* key) { return worker.value(key, std::string()); };
    try {
      if (!text("address").empty()) stored.settings.set(setting::worker, std::optional(text("address")));
      if (!text("token_file").empty()) stored.settings.set(setting::token_file, std::optional(text("token_file")));
      if (!text("ca_file").empty()) stored.settings.set(setting::tls_ca, std::optional(text("ca_file")));
    } catch (const ArgumentError& e) {
      stored.problems.push_back(std::string("worker: ") + e.what());
    }
    if (!text("job").empty()) {
      stored.job = JobRef{text("job"), {}};
      for (const auto& offset : worker.value("offsets", nlohmann::json::array())) {
        if (offset.is_number_integer()) stored.job->offsets.push_back(offset.get<int>());
      }
    }
  }
  if (config.contains("job") && config["job"].is_string()) {
    stored.job = JobRef{config["job"].get<std::string>(), {}};
    if (config.contains("job_offsets") && config["job_offsets"].is_array()) {
      for (const auto& offset : config["job_offsets"]) {
        if (offset.is_number_integer()) stored.job->offsets.push_back(offset.get<int>());
      }
    }
  }
  return stored;
}

}  // namespace variate::services
