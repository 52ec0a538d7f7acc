#include "variate/store/stored_run_summary.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "variate/diagnostics/ebfmi.h"
#include "variate/diagnostics/summary.h"
#include "variate/target/parameter_names.h"
#include "variate/io/summary_warnings.h"

namespace variate::store {
namespace {

bool is_sampler_column(const std::string& name) {
  return name.size() > 2 && name.compare(name.size() - 2, 2, "__") == 0;
}

int max_depth_of(const RunInfo& run) {
  const auto config = nlohmann::json::parse(run.config_json, nullptr, false);
  if (config.is_object() && config.contains("max_depth") && config["max_depth"].is_number_integer()) {
    return config["max_depth"].get<int>();
  }
  return 10;
}

// One column's post-warmup values of every chain, cut to `length` rows.
diagnostics::Draws column_draws(const std::vector<ChainDraws>& chains, size_t k, size_t length) {
  diagnostics::Draws draws;
  for (const auto& chain : chains) {
    const size_t first = chain.rows - chain.sampling_rows();
    std::vector<double> values(length);
    for (size_t i = 0; i < length; ++i) values[i] = chain.at(first + i, k);
    draws.push_back(std::move(values));
  }
  return draws;
}

io::SamplerTotals nuts_totals(const std::vector<ChainDraws>& chains, const std::vector<ChainRecord>& records,
                              int max_depth, io::SamplerChecks& checks) {
  io::SamplerTotals totals;
  const auto index = [](const ChainDraws& c, const char* name) {
    return static_cast<size_t>(std::find(c.columns.begin(), c.columns.end(), name) - c.columns.begin());
  };
  checks.chains = static_cast<int64_t>(chains.size());
  checks.max_depth = max_depth;
  for (const auto& chain : chains) {
    const size_t treedepth = index(chain, "treedepth__"), leapfrog = index(chain, "n_leapfrog__");
    const size_t divergent = index(chain, "divergent__"), energy_column = index(chain, "energy__");
    const size_t first = chain.rows - chain.sampling_rows();
    std::vector<double> energy;
    for (size_t row = 0; row < chain.rows; ++row) {
      totals.leapfrog_steps += static_cast<int64_t>(chain.at(row, leapfrog));
      if (row < first) continue;
      ++checks.transitions;
      checks.divergences += chain.at(row, divergent) != 0;
      checks.max_treedepth_hits += chain.at(row, treedepth) >= max_depth;
      energy.push_back(chain.at(row, energy_column));
    }
    if (energy.size() >= 2) checks.ebfmi.push_back(diagnostics::ebfmi(energy));
  }
  totals.divergences = checks.divergences;
  totals.max_treedepth_hits = checks.max_treedepth_hits;
  // As `variate sample` reports them: gradients summed, times of the slowest chain.
  for (const auto& record : records) {
    totals.gradient_evaluations += record.gradient_evaluations;
    totals.seconds_warmup = std::max(totals.seconds_warmup, record.seconds_warmup);
    totals.seconds_sampling = std::max(totals.seconds_sampling, record.seconds_sampling);
  }
  return totals;
}

}  // namespace

std::string StoredRunSummary::table() const { return io::format_summary_table(parameters, sampler_rows); }

std::string StoredRunSummary::json() const { return io::summary_json(parameters, totals); }

StoredRunSummary summarize_run(const Project& project, Id run_id) {
  const RunInfo run = project.run(run_id);
  const std::vector<ChainDraws> chains = project.draws(run_id);
  StoredRunSummary summary;
  summary.chains = static_cast<int>(chains.size());
  size_t length = chains.empty() ? 0 : chains.front().sampling_rows();
  for (const auto& chain : chains) length = std::min(length, chain.sampling_rows());
  summary.draws_per_chain = static_cast<int>(length);
  if (length > 0) {
    std::vector<diagnostics::ParameterSummary> parameters, sampler;
    for (size_t k = 0; k < run.columns.size(); ++k) {
      const std::string& name = run.columns[k];
      if (name == "lp__") {
        sampler.push_back(diagnostics::summarize(name, column_draws(chains, k, length)));
      } else if (!is_sampler_column(name)) {
        parameters.push_back(diagnostics::summarize(to_style(name, NameStyle::Bracketed),
                                                    column_draws(chains, k, length)));
      }
    }
    summary.parameters = io::summary_rows(parameters);
    summary.sampler_rows = io::summary_rows(sampler);
  }
  if (run.method == RunMethod::nuts && !chains.empty()) {
    io::SamplerChecks checks;
    summary.totals = nuts_totals(chains, project.chains(run_id), max_depth_of(run), checks);
    summary.warnings = io::summary_warnings(checks, summary.parameters);
  }
  return summary;
}

}  // namespace variate::store
