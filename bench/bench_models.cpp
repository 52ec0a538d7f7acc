#include "bench_models.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "engine/io/data_file.h"
#include "engine/model/compile.h"
#include "engine/target/parameter_names.h"

namespace variate::bench {
namespace {

namespace fs = std::filesystem;

// Both eight schools folders are the posteriordb model whose Stan program the logistic
// benchmark already ships.
std::string stan_program(const std::string& name) {
  const fs::path bench_dir = VARIATE_BENCH_DIR;
  if (name == "eight_schools" || name == "eight_schools-eight_schools_noncentered") {
    return (bench_dir / "eight_schools_noncentered.stan").string();
  }
  const fs::path path = bench_dir / "stan" / (name + ".stan");
  return fs::exists(path) ? path.string() : std::string();
}

std::vector<fs::path> sorted_folders(const fs::path& parent) {
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(parent)) {
    if (entry.is_directory()) folders.push_back(entry.path());
  }
  std::sort(folders.begin(), folders.end());
  return folders;
}

BenchModel bench_model(const fs::path& folder) {
  BenchModel model;
  model.name = folder.filename().string();
  std::vector<fs::path> vmods;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() == ".vmod") vmods.push_back(entry.path());
  }
  if (vmods.size() != 1) {
    throw std::runtime_error(folder.string() + " holds " + std::to_string(vmods.size()) +
                             " .vmod files, expected one");
  }
  model.vmod_path = vmods[0].string();
  model.data_path = (folder / "data.json").string();
  if (!fs::exists(model.data_path)) throw std::runtime_error(folder.string() + " has no data.json");
  model.stan_path = stan_program(model.name);
  return model;
}

}  // namespace

std::vector<BenchModel> find_bench_models() {
  const fs::path root = fs::path(VARIATE_BENCH_DIR).parent_path();
  std::vector<BenchModel> models;
  for (const char* parent : {"tests/data/reference", "projects"}) {
    for (const fs::path& folder : sorted_folders(root / parent)) {
      // A deep project (fashion_vae: train.json and test.json) is fit, not sampled.
      if (!fs::exists(folder / "data.json") && fs::exists(folder / "train.json")) continue;
      models.push_back(bench_model(folder));
    }
  }
  return models;
}

model::CompiledModel compile_bench_model(const BenchModel& model) {
  const Data data = io::read_data_file(model.data_path);
  model::CompileResult result = model::compile_model(
      model::Source(model.vmod_path, io::read_text_file(model.vmod_path)), &data);
  if (!result.ok() || !result.model) {
    throw std::runtime_error(model.vmod_path + " does not compile:\n" + result.report());
  }
  return *result.model;
}

std::vector<std::string> coordinate_names(const ParameterLayout& layout) {
  std::vector<std::string> names;
  for (const ParameterInfo& parameter : layout.parameters()) {
    for (auto& name :
         element_names(parameter.name, parameter.unconstrained_shape, NameStyle::Bracketed)) {
      names.push_back(std::move(name));
    }
  }
  return names;
}

std::vector<std::string> not_rank_preserving(const ParameterLayout& layout) {
  std::vector<std::string> names;
  for (const ParameterInfo& parameter : layout.parameters()) {
    const std::string bijector = parameter.bijector->name();
    bool monotone = bijector == "identity";
    for (const char* prefix : {"lower_bound(", "upper_bound(", "interval("}) {
      monotone = monotone || bijector.rfind(prefix, 0) == 0;
    }
    if (!monotone) names.push_back(parameter.name);
  }
  return names;
}

}  // namespace variate::bench
