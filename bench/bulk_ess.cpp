#include "bulk_ess.h"

#include <cmath>

#include "engine/diagnostics/ess.h"

namespace variate::bench {

MinBulkEss min_bulk_ess(const std::vector<diagnostics::Draws>& draws,
                        const std::vector<std::string>& names) {
  MinBulkEss result;
  for (size_t p = 0; p < draws.size(); ++p) {
    const double ess = diagnostics::ess_bulk(draws[p]);
    if (std::isnan(result.ess) || ess < result.ess) {
      result.ess = ess;
      result.parameter = p < names.size() ? names[p] : std::to_string(p);
    }
  }
  return result;
}

std::vector<diagnostics::Draws> sampling_draws(const std::vector<ChainResult>& chains) {
  const size_t d =
      chains.empty() || chains[0].positions.empty() ? 0 : chains[0].positions[0].size();
  std::vector<diagnostics::Draws> draws(d, diagnostics::Draws(chains.size()));
  for (size_t c = 0; c < chains.size(); ++c) {
    const ChainResult& chain = chains[c];
    for (size_t i = static_cast<size_t>(chain.warmup_iterations); i < chain.positions.size(); ++i) {
      for (size_t p = 0; p < d; ++p) draws[p][c].push_back(chain.positions[i][p]);
    }
  }
  return draws;
}

}  // namespace variate::bench
