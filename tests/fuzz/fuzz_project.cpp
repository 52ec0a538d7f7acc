// libFuzzer target over the project store (engine/store): the bytes are a `.variate`
// file, written to a temporary file, opened and read the way the CLI and the studio read
// one: models and their versions (canvas layouts), settings, data sets with their shapes,
// runs with their chains, draws, ELBO traces, documents, training records and summary.
// SQLite is trusted; the rows it returns are not. A bad file must raise a ProjectError; a
// crash, a sanitizer report or another exception is a finding.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "engine/store/data_set_shapes.h"
#include "engine/store/project.h"
#include "engine/store/stored_run_summary.h"

namespace {

namespace fs = std::filesystem;
namespace store = variate::store;

// One file per process, so that fuzzers run side by side (ctest -j) do not share it.
const std::string& project_path() {
  static const std::string path =
      (fs::temp_directory_path() / ("variate_fuzz_" + std::to_string(getpid()) + ".variate")).string();
  return path;
}

void remove_project() {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) std::remove((project_path() + suffix).c_str());
}

void read_everything(const store::Project& project) {
  for (const store::ModelInfo& model : project.models()) {
    for (const store::ModelVersion& version : project.model_versions(model.name)) {
      (void)project.model_version(version.id).canvas_layout_json.size();
    }
  }
  (void)project.latest_model_version();
  (void)project.setting("studio.run_config");
  for (const store::DataSet& data_set : project.data_sets()) {
    (void)project.data_set(data_set.id);
    store::data_set_shapes(data_set.name, data_set.json_text);
  }
  for (const store::RunInfo& run : project.runs()) {
    (void)project.run(run.id);
    for (const store::ChainDraws& chain : project.draws(run.id)) {
      for (const std::string& column : chain.columns) (void)chain.column(column, true);
    }
    (void)project.elbo_trace(run.id);
    (void)project.diagnostics_json(run.id);
    (void)project.loo_json(run.id);
    (void)project.training_epochs(run.id);
    (void)project.latest_checkpoint(run.id);
    (void)store::summarize_run(project, run.id);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  remove_project();
  {
    std::ofstream file(project_path(), std::ios::binary);
    file.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const store::Project project(project_path());
    read_everything(project);
  } catch (const store::ProjectError&) {
  }
  remove_project();
  return 0;
}
