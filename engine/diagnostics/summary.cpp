// The columns of posterior's default summarise_draws() (Vehtari et al. 2021). The bulk
// R-hat and the bulk ESS share one rank normalization, and the folded one reuses its sort.

#include "engine/diagnostics/summary.h"

#include <cmath>
#include <limits>
#include <numeric>

#include "engine/diagnostics/ess.h"
#include "engine/diagnostics/mcse.h"
#include "engine/diagnostics/quantiles.h"
#include "engine/diagnostics/rank_normalization.h"
#include "engine/diagnostics/rhat.h"
#include "engine/diagnostics/split_chains.h"

namespace variate::diagnostics {

namespace {

// The summary of draws whose largest magnitude is near 1 (unit_scaled).
ParameterSummary summarize_unit(std::string name, const Draws& draws) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  ParameterSummary s;
  s.name = std::move(name);
  std::vector<double> all = pooled(draws);
  const double count = static_cast<double>(all.size());
  // Shifted by the first draw: constant draws (a model's fixed quantity) give their value
  // and a standard deviation of 0 exactly, not a rounding error of the sum.
  const double shift = all.empty() ? 0.0 : all.front();
  double shifted_sum = 0;
  for (double x : all) shifted_sum += x - shift;
  s.mean = shift + shifted_sum / count;
  double squares = 0;
  for (double x : all) squares += (x - s.mean) * (x - s.mean);
  s.sd = std::sqrt(squares / (count - 1));
  const std::vector<double> q = quantiles(std::move(all), {0.05, 0.5, 0.95});
  s.q5 = q[0];
  s.q50 = q[1];
  s.q95 = q[2];
  s.mcse_mean = mcse_mean(draws);
  s.mcse_sd = mcse_sd(draws);
  s.ess_tail = ess_tail(draws);
  if (!all_finite(draws)) {
    s.ess_bulk = s.r_hat = kNaN;
    return s;
  }
  // As ess_bulk() and rhat(), sharing the ranking.
  const Ranking ranking(split_chains(draws));
  const Draws bulk = ranking.normalized();
  s.ess_bulk = ess(bulk);
  const double rhat_bulk = rhat_basic(bulk);
  const double rhat_tail = rhat_basic(ranking.folded_normalized(s.q50));
  s.r_hat = std::isnan(rhat_bulk) || std::isnan(rhat_tail) ? kNaN : std::max(rhat_bulk, rhat_tail);
  return s;
}

}  // namespace

ParameterSummary summarize(std::string name, const Draws& draws) {
  check_draws("summarize", draws);
  const UnitScaled unit = unit_scaled(draws);
  ParameterSummary s = summarize_unit(std::move(name), unit.draws);
  // ESS and R-hat have no units; the rest are in the draws' units.
  for (double* value : {&s.mean, &s.sd, &s.q5, &s.q50, &s.q95, &s.mcse_mean, &s.mcse_sd}) *value *= unit.scale;
  return s;
}

}  // namespace variate::diagnostics
