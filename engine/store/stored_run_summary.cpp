#include "engine/store/stored_run_summary.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/io/chains_summary.h"
#include "engine/mcmc/sampler_columns.h"

namespace variate::store {
namespace {

// The configuration's "backend_used" (what the CLI and the studio record).
std::string backend_of(const RunInfo& run) {
  const auto config = nlohmann::json::parse(run.config_json, nullptr, false);
  if (config.is_object() && config.contains("backend_used") && config["backend_used"].is_string()) {
    return config["backend_used"].get<std::string>();
  }
  return "";
}

// The processes that made the run: the CLI's "ranks" (which its summary records too), or
// the studio's "processes" when above one.
int ranks_of(const RunInfo& run) {
  const auto config = nlohmann::json::parse(run.config_json, nullptr, false);
  if (!config.is_object()) return 0;
  if (config.contains("ranks") && config["ranks"].is_number_integer()) return config["ranks"].get<int>();
  if (config.contains("processes") && config["processes"].is_number_integer() && config["processes"].get<int>() > 1) {
    return config["processes"].get<int>();
  }
  return 0;
}

int max_depth_of(const RunInfo& run) {
  const auto config = nlohmann::json::parse(run.config_json, nullptr, false);
  if (config.is_object() && config.contains("max_depth") && config["max_depth"].is_number_integer()) {
    return config["max_depth"].get<int>();
  }
  return 10;
}

// Each chain's post-warmup rows.
io::ChainRows sampling_rows(const std::vector<ChainDraws>& chains) {
  io::ChainRows rows;
  for (const auto& chain : chains) {
    const size_t width = chain.columns.size();
    std::vector<std::vector<double>> chain_rows;
    for (size_t row = chain.rows - chain.sampling_rows(); row < chain.rows; ++row) {
      const auto begin = chain.values.begin() + static_cast<std::ptrdiff_t>(row * width);
      chain_rows.emplace_back(begin, begin + static_cast<std::ptrdiff_t>(width));
    }
    rows.push_back(std::move(chain_rows));
  }
  return rows;
}

// Leapfrog steps over every row (and over warmup's alone), the rest from the chains' records,
// as `variate sample` reports them: gradients summed, times of the slowest chain.
io::SamplerTotals nuts_totals(const Project& project, const RunInfo& run, const std::vector<ChainDraws>& chains,
                              const io::SamplerChecks& checks) {
  io::SamplerTotals totals;
  const size_t leapfrog = column_index(SamplerColumn::n_leapfrog);
  for (const auto& chain : chains) {
    for (size_t row = 0; row < chain.rows; ++row) {
      const double value = chain.at(row, leapfrog);
      // A damaged value (NaN, 1e300) has no int64.
      if (!(value >= 0 && value < 0x1p40)) {
        std::ostringstream text;
        text << "project '" << project.path() << "': run " << run.id << ": n_leapfrog__ holds " << value
             << ", not a count of steps (the file is damaged)";
        throw ProjectError(text.str());
      }
      const auto steps = static_cast<int64_t>(value);
      if (__builtin_add_overflow(totals.leapfrog_steps, steps, &totals.leapfrog_steps)) {
        throw ProjectError("project '" + project.path() + "': run " + std::to_string(run.id) +
                           ": its n_leapfrog__ values sum beyond int64 (the file is damaged)");
      }
      if (row < static_cast<size_t>(std::max(0, chain.warmup_iterations))) totals.warmup_leapfrog_steps += steps;
    }
  }
  totals.divergences = checks.divergences;
  totals.max_treedepth_hits = checks.max_treedepth_hits;
  for (const auto& record : project.chains(run.id)) {
    // The count is the file's word: a damaged one may be negative or sum beyond int64.
    if (record.gradient_evaluations < 0 ||
        __builtin_add_overflow(totals.gradient_evaluations, record.gradient_evaluations, &totals.gradient_evaluations)) {
      throw ProjectError("project '" + project.path() + "': run " + std::to_string(run.id) + ": chain " +
                         std::to_string(record.chain + 1) + " holds " + std::to_string(record.gradient_evaluations) +
                         " gradient evaluations, not a count the run can have made (the file is damaged)");
    }
    totals.seconds_warmup = std::max(totals.seconds_warmup, record.seconds_warmup);
    totals.seconds_sampling = std::max(totals.seconds_sampling, record.seconds_sampling);
  }
  return totals;
}

}  // namespace

std::string StoredRunSummary::table() const { return io::format_summary_table(parameters, sampler_rows); }

std::string StoredRunSummary::json() const { return io::summary_json(parameters, totals, backend, ranks); }

StoredRunSummary summarize_run(const Project& project, Id run_id) {
  const RunInfo run = project.run(run_id);
  const std::vector<ChainDraws> chains = project.draws(run_id);
  const io::ChainRows rows = sampling_rows(chains);
  StoredRunSummary summary;
  summary.chains = static_cast<int>(chains.size());
  size_t length = rows.empty() ? 0 : rows.front().size();
  for (const auto& chain : rows) length = std::min(length, chain.size());
  summary.draws_per_chain = static_cast<int>(length);
  summary.backend = backend_of(run);
  summary.ranks = ranks_of(run);
  const io::ChainsSummary table = io::summarize_chains(rows, run.columns);
  summary.parameters = table.parameters;
  summary.sampler_rows = table.sampler_rows;
  if (draws_are_independent(run.method)) {
    // One chain of independent draws from an approximation: R-hat and ESS estimate
    // nothing, and the MCSE is exact (as `variate fit` summarizes them).
    const double s = static_cast<double>(length);
    for (io::SummaryRow& row : summary.parameters) {
      row.ess_bulk = row.ess_tail = s;
      row.mcse_mean = row.sd / std::sqrt(s);
      row.r_hat = std::nan("");
    }
  }
  // The checks read the sampler's columns by position: a run whose columns are not the
  // sampler's (a damaged file) has no totals.
  if (run.method == RunMethod::nuts && !chains.empty() && starts_with_sampler_columns(run.columns)) {
    const io::SamplerChecks checks = io::sampler_checks(rows, max_depth_of(run));
    summary.totals = nuts_totals(project, run, chains, checks);
    summary.warnings = io::summary_warnings(checks, summary.parameters);
  }
  return summary;
}

}  // namespace variate::store
