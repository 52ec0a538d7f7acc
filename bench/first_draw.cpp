// variate-bench-first-draw: how long the studio's edit -> first draw takes on each model
// the project ships: the NUTS service every front end calls parses and checks the text,
// binds the data, compiles the model and its tape, finds an initial point and step size,
// and makes the first warmup transition. Prints the first (cold) time and the median of
// the next five, per model.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/io/data_file.h"
#include "engine/services/sample.h"
#include "engine/services/setting_table.h"
#include "engine/services/vmod_source.h"

#include "runtime_info.h"

namespace fs = std::filesystem;

namespace {

struct ModelFiles {
  std::string name, model, data;
};

std::vector<ModelFiles> shipped_models(const fs::path& root) {
  std::vector<ModelFiles> models;
  for (const fs::path folder : {root / "tests/data/reference", root / "projects"}) {
    std::vector<fs::path> entries;
    for (const auto& entry : fs::directory_iterator(folder)) entries.push_back(entry.path());
    std::sort(entries.begin(), entries.end());
    for (const fs::path& dir : entries) {
      for (const auto& file : fs::directory_iterator(dir)) {
        if (file.path().extension() == ".vmod") {
          models.push_back({dir.filename().string(), file.path().string(), (dir / "data.json").string()});
        }
      }
    }
  }
  return models;
}

// Seconds from the model's text to its first warmup draw.
double first_draw_seconds(const ModelFiles& files, std::string& backend) {
  const auto start = std::chrono::steady_clock::now();
  namespace services = variate::services;
  services::RunSpec spec;
  spec.model = std::make_shared<services::VmodSource>(variate::io::read_text_file(files.model), files.model);
  spec.data = services::DataInput::file(files.data);
  spec.settings.set(services::setting::chains, 1);
  spec.settings.set(services::setting::warmup, 1);
  spec.settings.set(services::setting::draws, 0);
  spec.settings.set(services::setting::seed, 1);
  backend = services::run_sample(spec, {}).facts.backend;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main() {
  const auto info = variate::bench::runtime_info();
  std::printf("variate-bench-first-draw: LibTorch %s, %d cores, load average %.2f\n\n",
              info.torch_version.c_str(), info.cores, info.load_average);
  std::printf("%-42s %8s %10s %12s\n", "model", "backend", "cold (ms)", "median (ms)");
  double worst = 0;
  for (const auto& files : shipped_models(VARIATE_SOURCE_DIR)) {
    std::string backend;
    const double cold = first_draw_seconds(files, backend);
    std::vector<double> warm;
    for (int i = 0; i < 5; ++i) warm.push_back(first_draw_seconds(files, backend));
    std::sort(warm.begin(), warm.end());
    worst = std::max(worst, cold);
    std::printf("%-42s %8s %10.1f %12.1f\n", files.name.c_str(), backend.c_str(), 1e3 * cold, 1e3 * warm[2]);
  }
  std::printf("\nslowest cold edit -> first draw: %.1f ms\n", 1e3 * worst);
  return 0;
}
