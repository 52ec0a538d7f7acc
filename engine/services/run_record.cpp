#include "engine/services/run_record.h"

#include <filesystem>

#include "engine/core/argument_error.h"
#include "engine/services/setting_table.h"

namespace variate::services {

store::RunSpec new_run(store::Project& project, const RunSpec& spec, std::vector<std::string> columns,
                       const RunFacts& facts, const std::optional<JobRef>& job) {
  store::RunSpec record;
  const std::optional<std::string> text = spec.model->text();
  if (!text) throw ArgumentError("a model written in C++ has no text for a project to record");
  record.model_version_id =
      project.save_model(std::filesystem::path(spec.model->name()).stem().string(), *text).id;
  if (spec.data.given()) {
    check_data_fits_project(spec.data);
    record.data_set_id =
        project.save_data_set(std::filesystem::path(spec.data.name).stem().string(), spec.data.json_text()).id;
  }
  record.name = spec.record.run_name;
  record.method = spec.method;
  record.config_json = run_config_json(spec.method, spec.settings, facts, job).dump();
  record.seed = facts.seed;
  record.columns = std::move(columns);
  return record;
}

void record_job(const std::string& project_path, store::Id run, const JobRef& job) {
  store::Project project(project_path);
  nlohmann::ordered_json config = nlohmann::ordered_json::parse(project.run(run).config_json, nullptr, false);
  if (!config.is_object()) config = nlohmann::ordered_json::object();
  config["job"] = job.id;
  config["job_offsets"] = job.offsets;
  project.set_run_config(run, config.dump());
}

void check_data_fits_project(const DataInput& data) {
  if (!data.path) return;
  std::error_code error;
  const auto bytes = static_cast<int64_t>(std::filesystem::file_size(*data.path, error));
  if (error || bytes <= store::Project::max_data_set_bytes()) return;  // an unreadable file is the reader's to report
  throw ArgumentError("--project: the data file '" + *data.path + "' has " + std::to_string(bytes) +
                      " bytes; a project stores a data set of at most " +
                      std::to_string(store::Project::max_data_set_bytes()) +
                      " bytes (SQLite's limit on one value): run without --project (--output keeps the draws)");
}

}  // namespace variate::services
