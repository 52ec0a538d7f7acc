#include "engine/cli/project_output.h"

#include <filesystem>

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/io/data_file.h"
#include "engine/io/portable_json_data.h"
#include "engine/mcmc/sampler_columns.h"

namespace variate::cli {
namespace {

// CmdStan JSON of a tensor, keeping integers integers (sizes such as N must stay ints).
nlohmann::json to_json(const at::Tensor& tensor) {
  if (tensor.dim() == 0) {
    if (at::isFloatingType(tensor.scalar_type())) return tensor.item<double>();
    return tensor.item<int64_t>();
  }
  nlohmann::json array = nlohmann::json::array();
  for (int64_t i = 0; i < tensor.size(0); ++i) array.push_back(to_json(tensor[i]));
  return array;
}

// The data set as CmdStan JSON: a JSON file's own text, other formats converted.
std::string data_json(const std::string& path) {
  if (std::filesystem::path(path).extension() == ".json") return io::portable_json_data(io::read_text_file(path), path);
  nlohmann::json object = nlohmann::json::object();
  for (const auto& [name, value] : io::read_data_file(path).values()) object[name] = to_json(value);
  return object.dump();
}

}  // namespace

void check_data_fits_project(const std::string& data_path) {
  std::error_code error;
  const auto bytes = static_cast<int64_t>(std::filesystem::file_size(data_path, error));
  if (error || bytes <= store::Project::max_data_set_bytes()) return;  // an unreadable file is the reader's to report
  throw ArgumentError("--project: the data file '" + data_path + "' has " + std::to_string(bytes) +
                      " bytes; a project stores a data set of at most " +
                      std::to_string(store::Project::max_data_set_bytes()) +
                      " bytes (SQLite's limit on one value): run without --project (--output keeps the draws)");
}

std::unique_ptr<store::RunRecorder> start_project_run(const ProjectRunInput& input,
                                                      const DrawColumns& columns) {
  store::RunSpec spec;
  {
    store::Project project(input.project, store::Project::OpenMode::create);
    const std::string model_name = std::filesystem::path(input.model_path).stem().string();
    spec.model_version_id = project.save_model(model_name, io::read_text_file(input.model_path)).id;
    if (input.data_path) {
      const std::string data_name = std::filesystem::path(*input.data_path).stem().string();
      check_data_fits_project(*input.data_path);
      spec.data_set_id = project.save_data_set(data_name, data_json(*input.data_path)).id;
    }
  }
  spec.name = input.run_name.value_or("");
  spec.method = store::RunMethod::nuts;
  spec.config_json = input.config.dump();
  spec.seed = input.seed;
  spec.columns = sampler_column_names();
  for (const auto& name : columns.names(NameStyle::StanCsv)) spec.columns.push_back(name);
  store::RunRecorderOptions options;
  options.metric = input.metric;
  return std::make_unique<store::RunRecorder>(
      input.project, spec, [&columns](const auto& positions) { return columns.rows(positions); },
      options);
}

}  // namespace variate::cli
