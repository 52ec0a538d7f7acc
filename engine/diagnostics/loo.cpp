#include "engine/diagnostics/loo.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "engine/core/argument_error.h"
#include "engine/diagnostics/ess.h"
#include "engine/diagnostics/psis.h"

namespace variate::diagnostics {
namespace {

double log_sum_exp(const std::vector<double>& x) {
  const double top = *std::max_element(x.begin(), x.end());
  if (!std::isfinite(top)) return top;
  double sum = 0;
  for (const double v : x) sum += std::exp(v - top);
  return top + std::log(sum);
}

// sqrt(n var(x)), var with n - 1 in the denominator: loo's table_of_estimates.
double standard_error(const std::vector<double>& x) {
  const double n = static_cast<double>(x.size());
  const double mean = std::accumulate(x.begin(), x.end(), 0.0) / n;
  double squares = 0;
  for (const double v : x) squares += (v - mean) * (v - mean);
  return n > 1 ? std::sqrt(n * squares / (n - 1)) : 0;
}

double sum(const std::vector<double>& x) { return std::accumulate(x.begin(), x.end(), 0.0); }

}  // namespace

double relative_efficiency(const Draws& log_lik) {
  Draws likelihood = log_lik;
  for (auto& chain : likelihood) {
    for (double& v : chain) v = std::exp(v);
  }
  const double s = static_cast<double>(draws_per_chain(log_lik) * log_lik.size());
  const double effective = ess(likelihood);
  return std::isnan(effective) ? 1.0 : effective / s;
}

LooResult psis_loo(const std::vector<Draws>& log_lik) {
  if (log_lik.empty()) throw ArgumentError("psis_loo: no observations");
  LooResult result;
  for (size_t i = 0; i < log_lik.size(); ++i) {
    check_draws("psis_loo", log_lik[i]);
    if (log_lik[i].size() != log_lik[0].size() || draws_per_chain(log_lik[i]) != draws_per_chain(log_lik[0])) {
      throw ArgumentError("psis_loo: observation " + std::to_string(i + 1) + " has other chains than observation 1");
    }
    const std::vector<double> values = pooled(log_lik[i]);
    for (const double v : values) {
      if (std::isnan(v) || v == std::numeric_limits<double>::infinity()) {
        throw ArgumentError("psis_loo: observation " + std::to_string(i + 1) + " has a log likelihood that is NaN or +inf");
      }
    }
    const double r_eff = relative_efficiency(log_lik[i]);
    std::vector<double> log_ratios(values.size());
    for (size_t s = 0; s < values.size(); ++s) log_ratios[s] = -values[s];
    const PsisResult psis = pareto_smooth(log_ratios, r_eff);
    const double normalizer = log_sum_exp(psis.log_weights);
    std::vector<double> weighted(values.size());
    for (size_t s = 0; s < values.size(); ++s) weighted[s] = psis.log_weights[s] - normalizer + values[s];
    const double elpd = log_sum_exp(weighted);
    const double lpd = log_sum_exp(values) - std::log(static_cast<double>(values.size()));
    result.pointwise_elpd.push_back(elpd);
    result.pointwise_p.push_back(lpd - elpd);
    result.pareto_k.push_back(psis.k_hat);
    result.r_eff.push_back(r_eff);
  }
  result.elpd_loo = sum(result.pointwise_elpd);
  result.se_elpd_loo = standard_error(result.pointwise_elpd);
  result.p_loo = sum(result.pointwise_p);
  result.se_p_loo = standard_error(result.pointwise_p);
  result.looic = -2 * result.elpd_loo;
  result.se_looic = 2 * result.se_elpd_loo;
  return result;
}

std::vector<LooComparison> compare_loo(const std::vector<std::string>& names, const std::vector<LooResult>& fits) {
  if (fits.empty() || names.size() != fits.size()) throw ArgumentError("compare_loo: one name per fit is needed");
  for (size_t j = 1; j < fits.size(); ++j) {
    if (fits[j].pointwise_elpd.size() != fits[0].pointwise_elpd.size()) {
      throw ArgumentError("compare_loo: '" + names[j] + "' has " + std::to_string(fits[j].pointwise_elpd.size()) +
                          " observations, '" + names[0] + "' has " + std::to_string(fits[0].pointwise_elpd.size()) +
                          ": models are compared on the same data");
    }
  }
  std::vector<size_t> order(fits.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return fits[a].elpd_loo > fits[b].elpd_loo; });
  const LooResult& best = fits[order[0]];
  std::vector<LooComparison> table;
  for (const size_t j : order) {
    std::vector<double> difference(best.pointwise_elpd.size());
    for (size_t i = 0; i < difference.size(); ++i) difference[i] = fits[j].pointwise_elpd[i] - best.pointwise_elpd[i];
    const LooResult& fit = fits[j];
    table.push_back({names[j], sum(difference), standard_error(difference), fit.elpd_loo, fit.se_elpd_loo, fit.p_loo,
                     fit.se_p_loo, fit.looic, fit.se_looic});
  }
  return table;
}

}  // namespace variate::diagnostics
