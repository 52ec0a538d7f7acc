// Vehtari, Gelman, Simpson, Carpenter & Buerkner (2021), Sec. 3.2 and 4; Geyer (1992)
// for the initial positive and monotone sequences; BDA3 (Gelman et al. 2013) eq. 11.7-11.8
// for the multi-chain combination. Follows the loop of posterior's .ess() (identical to
// rstan 2.21's ess_rfun), including its index arithmetic: see tau_hat below.

#include "engine/diagnostics/ess.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "engine/diagnostics/autocovariance.h"
#include "engine/diagnostics/not_a_number.h"
#include "engine/diagnostics/quantiles.h"
#include "engine/diagnostics/rank_normalization.h"
#include "engine/diagnostics/split_chains.h"

namespace variate::diagnostics {
namespace {

// min that propagates NaN, like R's min(NA, x).
double nan_min(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? kNaN : std::min(a, b);
}

Draws indicator(const Draws& draws, double threshold) {
  Draws below(draws.size());
  for (std::size_t c = 0; c < draws.size(); ++c) {
    below[c].reserve(draws[c].size());
    for (double x : draws[c]) below[c].push_back(x <= threshold ? 1.0 : 0.0);
  }
  return below;
}

}  // namespace

double ess(const Draws& draws) {
  check_draws("ess", draws);
  const Draws chains = unit_scaled(draws).draws;  // autocovariances of draws near 3e200 overflow
  const auto n = static_cast<std::ptrdiff_t>(draws_per_chain(chains));
  const auto m = static_cast<double>(chains.size());
  if (n < 3 || !all_finite(chains) || is_constant(chains)) return kNaN;

  const std::vector<double> gamma = mean_autocovariance(chains);
  const double mean_var = gamma[0] * n / (n - 1.0);  // mean within-chain variance W
  double var_plus = mean_var * (n - 1.0) / n;
  if (chains.size() > 1) {
    std::vector<double> means;
    for (const auto& chain : chains)
      means.push_back(std::accumulate(chain.begin(), chain.end(), 0.0) / n);
    const double grand = std::accumulate(means.begin(), means.end(), 0.0) / m;
    double between = 0;
    for (double mu : means) between += (mu - grand) * (mu - grand);
    var_plus += between / (m - 1);  // B / n
  }
  const auto rho_at = [&](std::ptrdiff_t t) { return 1 - (mean_var - gamma[t]) / var_plus; };

  // Geyer's initial positive sequence: pairs (rho[t], rho[t+1]), t even, while their sum
  // stays positive; the last pair of lags is left out (t < n - 5).
  std::vector<double> rho(static_cast<std::size_t>(n), 0.0);
  double rho_even = 1;
  double rho_odd = rho_at(1);
  rho[0] = rho_even;
  rho[1] = rho_odd;
  std::ptrdiff_t t = 0;
  while (t < n - 5 && !std::isnan(rho_even + rho_odd) && rho_even + rho_odd > 0) {
    t += 2;
    rho_even = rho_at(t);
    rho_odd = rho_at(t + 1);
    if (rho_even + rho_odd >= 0) {
      rho[t] = rho_even;
      rho[t + 1] = rho_odd;
    }
  }
  const std::ptrdiff_t max_t = t;
  // The even term after the sequence enters tau once: it reduces variance for antithetic
  // chains.
  if (rho_even > 0) rho[max_t] = rho_even;

  // Geyer's initial monotone sequence: no pair sum exceeds the one before it.
  for (t = 2; t <= max_t - 2; t += 2) {
    const double previous = rho[t - 2] + rho[t - 1];
    if (rho[t] + rho[t + 1] > previous) {
      rho[t] = previous / 2;
      rho[t + 1] = rho[t];
    }
  }

  const double total = m * static_cast<double>(n);
  // tau = -1 + 2 sum_{t < max_t} rho[t] + rho[max_t]. When the sequence never started
  // (max_t = 0: chains of fewer than 6 draws, or a first pair sum 1 + rho[1] <= 0),
  // posterior's sum(rho_hat_t[1:max_t]) reads R's 1:0 as c(1, 0), i.e. rho[0]; we keep
  // that, so tau = 2 and ESS = S / 2 there, as in posterior and rstan.
  const double head = max_t == 0 ? rho[0] : std::accumulate(rho.begin(), rho.begin() + max_t, 0.0);
  double tau = -1 + 2 * head + rho[max_t];
  tau = std::max(tau, 1 / std::log10(total));
  return total / tau;
}

double ess_bulk(const Draws& draws) {
  check_draws("ess_bulk", draws);
  // Ranks exist for infinite draws, but posterior's other diagnostics are NA for them;
  // NaN throughout keeps the summary consistent.
  if (!all_finite(draws)) return kNaN;
  return ess(rank_normalize(split_chains(draws)));
}

double ess_quantile(const Draws& draws, double prob) {
  check_draws("ess_quantile", draws);
  const double q = quantile(draws, prob);  // checks prob
  if (!all_finite(draws) || is_constant(draws)) return kNaN;
  return ess(split_chains(indicator(draws, q)));
}

double ess_tail(const Draws& draws) {
  check_draws("ess_tail", draws);
  if (!all_finite(draws) || is_constant(draws)) return kNaN;
  const std::vector<double> q = quantiles(pooled(draws), {0.05, 0.95});
  return nan_min(ess(split_chains(indicator(draws, q[0]))),
                 ess(split_chains(indicator(draws, q[1]))));
}

double ess_mean(const Draws& draws) { return ess(split_chains(draws)); }

double ess_sd(const Draws& draws) {
  check_draws("ess_sd", draws);
  Draws squared = unit_scaled(draws).draws;  // squares of draws near 3e200 overflow
  const std::vector<double> all = pooled(squared);
  const double mean = std::accumulate(all.begin(), all.end(), 0.0) / all.size();
  for (auto& chain : squared) {
    for (double& x : chain) x = (x - mean) * (x - mean);
  }
  return ess(split_chains(squared));
}

}  // namespace variate::diagnostics
