#include "engine/services/stored_run.h"

#include <algorithm>

#include "engine/core/argument_error.h"
#include "engine/io/data_file.h"
#include "engine/model/compile.h"
#include "engine/services/run_error.h"

namespace variate::services {
namespace {

bool is_id(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::string run_list(const std::vector<store::RunInfo>& runs) {
  std::string list;
  for (const auto& r : runs) list += (list.empty() ? "" : ", ") + std::to_string(r.id) + " '" + r.name + "'";
  return list.empty() ? "none" : list;
}

}  // namespace

store::RunInfo find_run(const store::Project& project, const std::string& run) {
  const std::vector<store::RunInfo> runs = project.runs();
  std::vector<store::RunInfo> named;
  std::copy_if(runs.begin(), runs.end(), std::back_inserter(named), [&](const auto& r) { return r.name == run; });
  if (named.size() > 1) {
    throw ArgumentError("project '" + project.path() + "' has " + std::to_string(named.size()) + " runs named '" + run +
                        "': give the run's id (its runs: " + run_list(runs) + ")");
  }
  const auto by_id = std::find_if(runs.begin(), runs.end(), [&](const auto& r) { return is_id(run) && std::to_string(r.id) == run; });
  if (named.size() == 1 && by_id != runs.end() && by_id->id != named[0].id) {
    throw ArgumentError("project '" + project.path() + "': '" + run + "' is both the id of run '" + by_id->name +
                        "' and the name of run " + std::to_string(named[0].id) + ": give '" + by_id->name + "' or " +
                        std::to_string(named[0].id));
  }
  if (named.size() == 1) return named[0];
  if (by_id != runs.end()) return *by_id;
  throw ArgumentError("project '" + project.path() + "' has no run '" + run + "' (its runs: " + run_list(runs) + ")");
}

StoredRun load_stored_run(const store::Project& project, const std::string& run) {
  const store::RunInfo info = find_run(project, run);
  const store::ModelVersion version = project.model_version(info.model_version_id);
  const std::string where = project.path() + ", run '" + info.name + "'";
  const Data data = info.data_set_id ? io::parse_json_data(project.data_set(*info.data_set_id).json_text,
                                                           where + ", data set")
                                     : Data();
  auto compiled = model::compile_model(model::Source(where + ", model", version.text), &data);
  if (!compiled.ok()) throw ReportedError(compiled.report());
  if (!compiled.model) throw ArgumentError(where + " has no data set, which its model declares");
  std::vector<store::ChainDraws> chains = project.draws(info.id);
  const bool no_draws = std::all_of(chains.begin(), chains.end(), [](const auto& c) { return c.sampling_rows() == 0; });
  if (no_draws) throw ArgumentError(where + " has no draws after warmup");
  return StoredRun{info, std::move(*compiled.model), std::move(chains)};
}

std::vector<ChainTable> sampling_tables(const StoredRun& run) {
  std::vector<ChainTable> tables;
  for (const auto& chain : run.chains) {
    ChainTable table{"run '" + run.info.name + "', chain " + std::to_string(chain.chain + 1), chain.chain + 1,
                     chain.columns, {}};
    const size_t first = chain.rows - chain.sampling_rows();
    for (size_t r = first; r < chain.rows; ++r) {
      const auto begin = chain.values.begin() + static_cast<std::ptrdiff_t>(r * chain.columns.size());
      table.rows.emplace_back(begin, begin + static_cast<std::ptrdiff_t>(chain.columns.size()));
    }
    tables.push_back(std::move(table));
  }
  return tables;
}

}  // namespace variate::services
