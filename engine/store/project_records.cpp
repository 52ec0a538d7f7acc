#include "engine/store/project_records.h"

#include <algorithm>

#include "engine/store/project_error.h"

namespace variate::store {

const char* to_string(RunMethod method) {
  switch (method) {
    case RunMethod::nuts: return "nuts";
    case RunMethod::advi: return "advi";
    case RunMethod::amortized: return "amortized";
    case RunMethod::optimize: return "optimize";
    case RunMethod::pathfinder: return "pathfinder";
    case RunMethod::sbc:
      return "sbc";
  }
  return "nuts";
}

const char* to_string(RunStatus status) {
  switch (status) {
    case RunStatus::running: return "running";
    case RunStatus::finished: return "finished";
    case RunStatus::stopped: return "stopped";
    case RunStatus::interrupted: return "interrupted";
    case RunStatus::failed: return "failed";
  }
  return "failed";
}

RunMethod run_method_from_string(const std::string& text) {
  for (RunMethod method : {RunMethod::nuts, RunMethod::advi, RunMethod::amortized, RunMethod::optimize,
                           RunMethod::pathfinder, RunMethod::sbc}) {
    if (text == to_string(method)) return method;
  }
  throw ProjectError("unknown run method '" + text + "' (expected nuts, advi, amortized, optimize, pathfinder or sbc)");
}

RunStatus run_status_from_string(const std::string& text) {
  for (RunStatus status : {RunStatus::running, RunStatus::finished, RunStatus::stopped,
                           RunStatus::interrupted, RunStatus::failed}) {
    if (text == to_string(status)) return status;
  }
  throw ProjectError("unknown run status '" + text + "'");
}

size_t ChainDraws::sampling_rows() const {
  return rows - std::min(rows, static_cast<size_t>(std::max(0, warmup_iterations)));
}

std::vector<double> ChainDraws::column(const std::string& name, bool with_warmup) const {
  const auto found = std::find(columns.begin(), columns.end(), name);
  if (found == columns.end()) {
    throw ProjectError("chain " + std::to_string(chain + 1) + " has no column '" + name + "'");
  }
  const size_t k = static_cast<size_t>(found - columns.begin());
  const size_t first = with_warmup ? 0 : rows - sampling_rows();
  std::vector<double> values;
  values.reserve(rows - first);
  for (size_t row = first; row < rows; ++row) values.push_back(at(row, k));
  return values;
}

}  // namespace variate::store
