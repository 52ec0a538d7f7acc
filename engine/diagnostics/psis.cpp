#include "engine/diagnostics/psis.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "engine/core/argument_error.h"

namespace variate::diagnostics {
namespace {

// The profile log likelihood of theta (loo's lx), per observation.
double profile_log_likelihood(double theta, const std::vector<double>& x) {
  const double a = -theta;
  double k = 0;
  for (const double v : x) k += std::log1p(a * v);
  k /= static_cast<double>(x.size());
  return std::log(a / k) - k - 1;
}

// Quantiles of the generalized Pareto distribution (loo's qgpd).
double pareto_quantile(double p, double k, double sigma) { return sigma * std::expm1(-k * std::log1p(-p)) / k; }

}  // namespace

ParetoFit fit_generalized_pareto(const std::vector<double>& x) {
  const size_t n = x.size();
  const double prior = 3;
  const size_t m = 30 + static_cast<size_t>(std::floor(std::sqrt(static_cast<double>(n))));
  // R's x[floor(N / 4 + 0.5)], 1-based: the first quartile.
  const double xstar = x[static_cast<size_t>(std::floor(static_cast<double>(n) / 4 + 0.5)) - 1];
  std::vector<double> theta(m), log_likelihood(m);
  for (size_t j = 0; j < m; ++j) {
    theta[j] = 1 / x[n - 1] + (1 - std::sqrt(static_cast<double>(m) / (static_cast<double>(j + 1) - 0.5))) / prior / xstar;
    log_likelihood[j] = static_cast<double>(n) * profile_log_likelihood(theta[j], x);
  }
  const double top = *std::max_element(log_likelihood.begin(), log_likelihood.end());
  double total = 0;
  for (const double l : log_likelihood) total += std::exp(l - top);
  const double log_total = top + std::log(total);
  double theta_hat = 0;
  for (size_t j = 0; j < m; ++j) theta_hat += theta[j] * std::exp(log_likelihood[j] - log_total);
  double k = 0;
  for (const double v : x) k += std::log1p(-theta_hat * v);
  k /= static_cast<double>(n);
  const double sigma = -k / theta_hat;
  // A prior worth a = 10 observations pulls k toward 0.5 (loo's adjust_k_wip).
  const double a = 10, nd = static_cast<double>(n);
  k = k * nd / (nd + a) + a * 0.5 / (nd + a);
  if (std::isnan(k)) k = std::numeric_limits<double>::infinity();
  return {k, sigma};
}

PsisResult pareto_smooth(const std::vector<double>& log_ratios, double r_eff) {
  if (!(r_eff > 0)) throw ArgumentError("pareto_smooth: r_eff must be positive");
  const size_t s = log_ratios.size();
  if (s < 2) throw ArgumentError("pareto_smooth: at least 2 log ratios are needed");
  for (const double r : log_ratios) {
    if (std::isnan(r) || r == std::numeric_limits<double>::infinity()) {
      throw ArgumentError("pareto_smooth: a log ratio is NaN or +inf");
    }
  }
  PsisResult result;
  const double sd = static_cast<double>(s);
  result.tail_length = static_cast<int>(std::ceil(std::min(0.2 * sd, 3 * std::sqrt(sd / r_eff))));
  const double top = *std::max_element(log_ratios.begin(), log_ratios.end());
  result.log_weights.resize(s);
  for (size_t i = 0; i < s; ++i) result.log_weights[i] = log_ratios[i] - top;  // safer exponentiation
  result.k_hat = std::numeric_limits<double>::infinity();
  const size_t m = static_cast<size_t>(result.tail_length);
  if (m >= 5 && m < s) {
    std::vector<size_t> order(s);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return result.log_weights[a] < result.log_weights[b]; });
    const double lowest_tail = result.log_weights[order[s - m]];
    const double highest_tail = result.log_weights[order[s - 1]];
    if (std::abs(highest_tail - lowest_tail) >= std::numeric_limits<double>::epsilon() / 100) {
      const double cutoff = result.log_weights[order[s - m - 1]];  // the largest below the tail
      const double exp_cutoff = std::exp(cutoff);
      std::vector<double> exceedances(m);
      for (size_t i = 0; i < m; ++i) exceedances[i] = std::exp(result.log_weights[order[s - m + i]]) - exp_cutoff;
      const ParetoFit fit = fit_generalized_pareto(exceedances);
      result.k_hat = fit.k;
      if (std::isfinite(fit.k)) {
        for (size_t i = 0; i < m; ++i) {
          const double p = (static_cast<double>(i + 1) - 0.5) / static_cast<double>(m);
          result.log_weights[order[s - m + i]] = std::log(pareto_quantile(p, fit.k, fit.sigma) + exp_cutoff);
        }
      }
    }
  }
  // Truncated at the largest raw weight (0 after the shift), then shifted back.
  for (double& w : result.log_weights) w = std::min(w, 0.0) + top;
  return result;
}

double importance_k_hat(const std::vector<double>& log_ratios) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (log_ratios.size() < 2) return nan;
  for (const double r : log_ratios) {
    if (std::isnan(r) || r == std::numeric_limits<double>::infinity()) return nan;
  }
  return pareto_smooth(log_ratios).k_hat;
}

}  // namespace variate::diagnostics
