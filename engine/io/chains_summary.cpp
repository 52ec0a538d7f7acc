#include "engine/io/chains_summary.h"

#include <algorithm>

#include "engine/core/checks.h"
#include "engine/diagnostics/ebfmi.h"
#include "engine/diagnostics/summary.h"
#include "engine/mcmc/sampler_columns.h"
#include "engine/target/parameter_names.h"

namespace variate::io {
namespace {

bool is_method_column(const std::string& name) {
  return name.size() > 2 && name.compare(name.size() - 2, 2, "__") == 0;
}

}  // namespace

ChainsSummary summarize_chains(const ChainRows& rows, const std::vector<std::string>& columns) {
  ChainsSummary summary;
  size_t length = rows.empty() ? 0 : rows.front().size();
  for (const auto& chain : rows) length = std::min(length, chain.size());
  if (length == 0) return summary;
  for (const auto& chain : rows) {
    for (size_t i = 0; i < length; ++i) {
      if (chain[i].size() < columns.size()) {
        throw ArgumentError("summarize_chains: a row has " + std::to_string(chain[i].size()) +
                            " values, the columns name " + std::to_string(columns.size()));
      }
    }
  }
  const std::string& lp = sampler_column_name(SamplerColumn::lp);
  std::vector<diagnostics::ParameterSummary> parameters, sampler;
  for (size_t k = 0; k < columns.size(); ++k) {
    if (is_method_column(columns[k]) && columns[k] != lp) continue;
    diagnostics::Draws draws(rows.size(), std::vector<double>(length));
    for (size_t c = 0; c < rows.size(); ++c) {
      for (size_t i = 0; i < length; ++i) draws[c][i] = rows[c][i][k];
    }
    if (columns[k] == lp) {
      sampler.push_back(diagnostics::summarize(lp, draws));
    } else {
      parameters.push_back(diagnostics::summarize(to_style(columns[k], NameStyle::Bracketed), draws));
    }
  }
  summary.parameters = summary_rows(parameters);
  summary.sampler_rows = summary_rows(sampler);
  return summary;
}

SamplerChecks sampler_checks(const ChainRows& rows, int64_t max_depth) {
  SamplerChecks checks;
  checks.chains = static_cast<int64_t>(rows.size());
  checks.max_depth = max_depth;
  const size_t divergent = column_index(SamplerColumn::divergent);
  const size_t treedepth = column_index(SamplerColumn::treedepth);
  const size_t energy_column = column_index(SamplerColumn::energy);
  for (const auto& chain : rows) {
    std::vector<double> energy;
    for (const auto& row : chain) {
      ++checks.transitions;
      checks.divergences += row[divergent] != 0;
      checks.max_treedepth_hits += reached_max_depth(row[treedepth], static_cast<int>(max_depth));
      energy.push_back(row[energy_column]);
    }
    if (energy.size() >= 2) checks.ebfmi.push_back(diagnostics::ebfmi(energy));
  }
  return checks;
}

SamplerTotals sampler_totals(const std::vector<ChainResult>& chains) {
  SamplerTotals totals;
  for (const auto& chain : chains) {
    for (size_t i = 0; i < chain.stats.size(); ++i) {
      totals.leapfrog_steps += chain.stats[i].leapfrog_steps;
      if (static_cast<int>(i) < chain.warmup_iterations) {
        totals.warmup_leapfrog_steps += chain.stats[i].leapfrog_steps;
        continue;
      }
      totals.divergences += chain.stats[i].has_divergence;
      totals.max_treedepth_hits += chain.stats[i].reached_max_depth;
    }
    totals.gradient_evaluations += chain.gradient_evaluations;
    totals.seconds_warmup = std::max(totals.seconds_warmup, chain.seconds_warmup);
    totals.seconds_sampling = std::max(totals.seconds_sampling, chain.seconds_sampling);
  }
  return totals;
}

}  // namespace variate::io
