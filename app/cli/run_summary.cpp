#include "cli/run_summary.h"

#include <algorithm>

#include <variate/diagnostics/ebfmi.h>
#include <variate/diagnostics/summary.h>

namespace variate::cli {

std::vector<io::SummaryRow> summarize_columns(
    const std::vector<std::vector<std::vector<double>>>& draws, size_t first,
    const std::vector<std::string>& names) {
  size_t length = draws.empty() ? 0 : draws[0].size();
  for (const auto& chain : draws) length = std::min(length, chain.size());
  std::vector<diagnostics::ParameterSummary> summaries;
  if (length == 0) return {};
  for (size_t k = 0; k < names.size(); ++k) {
    diagnostics::Draws column(draws.size(), std::vector<double>(length));
    for (size_t c = 0; c < draws.size(); ++c) {
      for (size_t i = 0; i < length; ++i) column[c][i] = draws[c][i][first + k];
    }
    summaries.push_back(diagnostics::summarize(names[k], column));
  }
  return io::summary_rows(summaries);
}

io::SamplerChecks sampler_checks(const std::vector<std::vector<std::vector<double>>>& draws,
                                 int max_depth) {
  io::SamplerChecks checks;
  checks.chains = static_cast<int64_t>(draws.size());
  checks.max_depth = max_depth;
  for (const auto& chain : draws) {
    std::vector<double> energy;
    for (const auto& row : chain) {
      ++checks.transitions;
      checks.divergences += row[5] != 0;
      checks.max_treedepth_hits += row[3] >= max_depth;
      energy.push_back(row[6]);
    }
    if (energy.size() >= 2) checks.ebfmi.push_back(diagnostics::ebfmi(energy));
  }
  return checks;
}

}  // namespace variate::cli
