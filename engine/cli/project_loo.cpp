#include "engine/cli/project_loo.h"

#include <fnmatch.h>

#include <set>

#include "engine/cli/compare_inputs.h"
#include "engine/services/loo.h"
#include "engine/services/stored_run.h"
#include "engine/store/project.h"

namespace variate::cli {
namespace {

// The runs the arguments name, each once, in the order first named.
// @throws ArgumentError for a name, id or glob that matches no run (services::find_run).
std::vector<store::RunInfo> compared_runs(const store::Project& project, const std::vector<std::string>& arguments) {
  std::vector<store::RunInfo> runs;
  std::set<store::Id> named;
  const auto add = [&](const store::RunInfo& run) {
    if (named.insert(run.id).second) runs.push_back(run);
  };
  for (const auto& argument : arguments) {
    if (!is_glob(argument)) {
      add(services::find_run(project, argument));
      continue;
    }
    bool matched = false;
    for (const auto& run : project.runs()) {
      if (fnmatch(argument.c_str(), run.name.c_str(), 0) != 0) continue;
      add(run);
      matched = true;
    }
    if (!matched) add(services::find_run(project, argument));  // a run named so, or the error listing the runs
  }
  return runs;
}

}  // namespace

ProjectLoo project_loo() {
  ProjectLoo loo;
  loo.run_loo = [](const std::string& path, const std::string& run) {
    store::Project project(path);
    const services::LooOutcome outcome = services::run_loo(project, run);
    return std::pair{outcome.loo, outcome.draws};
  };
  loo.compared_runs = [](const std::string& path, const std::vector<std::string>& arguments) {
    store::Project project(path);
    std::vector<std::pair<std::string, diagnostics::LooResult>> fits;
    for (const auto& run : compared_runs(project, arguments)) {
      fits.emplace_back(run.name, services::run_loo(project, std::to_string(run.id)).loo);
    }
    return fits;
  };
  return loo;
}

}  // namespace variate::cli
