#pragma once
/// Pareto smoothed importance sampling (Vehtari, Simpson, Gelman, Yao & Gabry 2024, JMLR
/// 25(72)), as R's loo package computes it (`loo::psis`, r_eff = 1): the largest
/// M = ceil(min(S / 5, 3 sqrt(S))) importance ratios are replaced by the expected order
/// statistics of a generalized Pareto distribution fitted to them (Zhang & Stephens 2009,
/// with loo's weakly informative prior on k), and all log weights are truncated at the
/// largest raw one. The fitted shape k-hat is the reliability diagnostic of Yao, Vehtari,
/// Simpson & Gelman (2018, "Yes, but did it work?"): below 0.7 the importance-weighted
/// estimates (and the approximation q they correct) can be trusted.
///
///   const PsisResult psis = pareto_smooth(log_p - log_q);
///   if (psis.k_hat > kPsisKHatThreshold) warn(...);

#include <vector>

namespace variate::diagnostics {

/// k-hat above this: the importance ratios' tail is too heavy for the estimates (and for q
/// as an approximation of p) to be trusted.
constexpr double kPsisKHatThreshold = 0.7;

struct PsisResult {
  /// Smoothed log weights, unnormalized, in the order of the log ratios given.
  std::vector<double> log_weights;
  /// The generalized Pareto shape of the tail; +inf when the tail has fewer than 5
  /// draws or cannot be fitted.
  double k_hat = 0;
  /// The tail length M.
  int tail_length = 0;
};

/// `r_eff`: the draws' relative efficiency (ESS / S, loo's relative_eff) when they come
/// from Markov chains; the tail is then M = ceil(min(S / 5, 3 sqrt(S / r_eff))).
/// @throws ArgumentError for fewer than 2 ratios, a ratio that is NaN or +inf, or r_eff <= 0.
PsisResult pareto_smooth(const std::vector<double>& log_ratios, double r_eff = 1);

/// The k-hat of an approximation's draws, log_ratios = log p - log q: NaN where
/// pareto_smooth() would throw (fewer than 2 ratios, a NaN or +inf ratio: a draw whose
/// density could not be evaluated), so that a fit reports "not available" instead.
double importance_k_hat(const std::vector<double>& log_ratios);

/// The generalized Pareto fit of `x` (positive exceedances, sorted ascending) as loo's
/// gpdfit: posterior mean of theta on Zhang & Stephens's grid, k adjusted toward 0.5 by
/// a prior worth 10 observations.
struct ParetoFit {
  double k = 0;
  double sigma = 0;
};
ParetoFit fit_generalized_pareto(const std::vector<double>& sorted_x);

}  // namespace variate::diagnostics
