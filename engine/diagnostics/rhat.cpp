// Vehtari, Gelman, Simpson, Carpenter & Buerkner (2021), Sec. 4.1-4.2 (rank-normalized
// split R-hat, folded split R-hat, their maximum); Gelman et al., BDA3, eq. 11.2-11.4.
// Matches posterior's rhat() and .rhat().

#include "engine/diagnostics/rhat.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "engine/diagnostics/not_a_number.h"
#include "engine/diagnostics/quantiles.h"
#include "engine/diagnostics/rank_normalization.h"
#include "engine/diagnostics/split_chains.h"

namespace variate::diagnostics {

double rhat_basic(const Draws& draws) {
  check_draws("rhat_basic", draws);
  const Draws chains = unit_scaled(draws).draws;  // squares of draws near 3e200 overflow
  const std::size_t n = draws_per_chain(chains);
  const auto m = static_cast<double>(chains.size());
  // With one draw per chain the within-chain variance is undefined (R's var() is NA).
  if (n < 2 || !all_finite(chains) || is_constant(chains)) return kNaN;
  std::vector<double> means;
  double within = 0;
  for (const auto& chain : chains) {
    const double mean = std::accumulate(chain.begin(), chain.end(), 0.0) / n;
    double squares = 0;
    for (double x : chain) squares += (x - mean) * (x - mean);
    means.push_back(mean);
    within += squares / (n - 1.0);
  }
  within /= m;
  const double grand = std::accumulate(means.begin(), means.end(), 0.0) / m;
  double between = 0;  // B / n
  for (double mu : means) between += (mu - grand) * (mu - grand);
  // One chain: R's var() of a single mean is NA, so posterior's R-hat is NA as well.
  between = chains.size() > 1 ? between / (m - 1) : kNaN;
  return std::sqrt((n * between / within + n - 1.0) / n);
}

double rhat_bulk(const Draws& draws) {
  check_draws("rhat_bulk", draws);
  if (!all_finite(draws)) return kNaN;
  return rhat_basic(Ranking(split_chains(draws)).normalized());
}

double rhat_tail(const Draws& draws) {
  check_draws("rhat_tail", draws);
  if (!all_finite(draws)) return kNaN;
  // Folding commutes with splitting; the median is that of all draws, as in posterior.
  return rhat_basic(Ranking(split_chains(draws)).folded_normalized(median(draws)));
}

double rhat(const Draws& draws) {
  check_draws("rhat", draws);
  if (!all_finite(draws)) return kNaN;
  const Ranking ranking(split_chains(draws));
  const double bulk = rhat_basic(ranking.normalized());
  const double tail = rhat_basic(ranking.folded_normalized(median(draws)));
  return std::isnan(bulk) || std::isnan(tail) ? kNaN : std::max(bulk, tail);
}

}  // namespace variate::diagnostics
