#pragma once
/// The configuration a project stores with a run: "method", every setting the method
/// takes (Settings::json), what the run decided ("backend_used", "ranks") and, for a run
/// on a worker, its "job" and "job_offsets"; and that configuration read back, as
/// leniently as an older project needs. Plain values: the studio's documents include this.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/services/run_facts.h"
#include "engine/services/settings.h"

namespace variate::services {

/// The method each replication of an SBC run fits by (the setting fit).
Method fit_method(const Settings& settings);

/// An SBC run's configuration has its fit's settings too.
nlohmann::ordered_json run_config_json(Method method, const Settings& settings, const RunFacts& facts,
                                       const std::optional<JobRef>& job);

struct StoredConfig {
  Method method = Method::nuts;
  Settings settings;
  RunFacts facts;
  std::optional<JobRef> job;
  /// Values the settings do not take, left at their defaults ("max_depth: expected ...").
  std::vector<std::string> problems;
};

StoredConfig read_run_config(Method method, const std::string& config_json);

}  // namespace variate::services
