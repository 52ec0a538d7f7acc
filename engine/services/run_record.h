#pragma once
/// A run's record in a project: the model's text as a version and the data as a data set
/// (each saved once, whoever runs it) and its configuration (run_config.h).

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/services/run_config.h"
#include "engine/services/run_observers.h"
#include "engine/services/run_spec.h"
#include "engine/store/project.h"

namespace variate::services {

/// The record of a new run of `spec` with draw columns `columns` (its method's own, then
/// the outputs'): the model's text and the data saved into `project`.
/// @throws store::ProjectError; ArgumentError for data that cannot be read.
store::RunSpec new_run(store::Project& project, const RunSpec& spec, std::vector<std::string> columns,
                       const RunFacts& facts, const std::optional<JobRef>& job = std::nullopt);

/// Names `job` in run `run`'s configuration as the job that makes its draws now (a run
/// continued on a worker), so that reopening the project reattaches to it.
/// @throws store::ProjectError
void record_job(const std::string& project, store::Id run, const JobRef& job);

/// Refuses, before the data is read, a data file larger than a project stores
/// (store::Project::max_data_set_bytes()): such a file runs without --project.
/// @throws ArgumentError naming the file, its size and the limit.
void check_data_fits_project(const DataInput& data);

}  // namespace variate::services
