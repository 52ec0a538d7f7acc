#pragma once
// `variate sample ... --project P.variate [--run-name NAME]`: records the run into a
// project (created if absent): the model text as a new version, the data set, the
// configuration, every draw while it is made, and the summary at the end.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/mcmc/sample.h"
#include "engine/target/draw_columns.h"
#include "engine/store/run_recorder.h"

namespace variate::cli {

struct ProjectRunInput {
  std::string project;
  std::optional<std::string> run_name;
  std::string model_path;
  std::optional<std::string> data_path;
  nlohmann::json config;  // the sampler's options as given
  uint64_t seed = 0;
  MetricKind metric = MetricKind::diagonal;
};

/// Refuses, before the data is read, a data file larger than a project stores
/// (store::Project::max_data_set_bytes()): such a file runs without --project.
/// @throws ArgumentError naming the file, its size and the limit.
void check_data_fits_project(const std::string& data_path);

/// Saves the model text and data set into the project and starts recording a NUTS run.
/// @throws store::ProjectError if the project cannot be opened or written;
/// ArgumentError if the model or data file cannot be read.
std::unique_ptr<store::RunRecorder> start_project_run(const ProjectRunInput& input,
                                                      const DrawColumns& columns);

}  // namespace variate::cli
