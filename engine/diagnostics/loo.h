#pragma once
/// Approximate leave-one-out cross-validation by Pareto smoothed importance sampling
/// (Vehtari, Gelman & Gabry 2017), as R's loo package 2.5.1 computes it:
///
///   loo::loo(log_lik, r_eff = loo::relative_eff(exp(log_lik), chain_id))
///
/// For observation i the importance ratios of the draws are 1 / p(y_i | theta_s), smoothed
/// by PSIS with the draws' relative efficiency r_eff_i (the ESS of exp(log_lik_i) over the
/// chains divided by the draws); elpd_loo_i = log sum_s w_s p(y_i | theta_s) with the
/// normalized smoothed weights. k-hat of each observation's ratios says whether its
/// estimate holds (above 0.7 it does not: that observation is too influential).
///
///   const LooResult loo = psis_loo(log_lik);   // log_lik[observation] = its chains
///   loo.elpd_loo, loo.se_elpd_loo, loo.pareto_k

#include <string>
#include <vector>

#include "engine/diagnostics/draws.h"

namespace variate::diagnostics {

struct LooResult {
  double elpd_loo = 0, se_elpd_loo = 0;
  double p_loo = 0, se_p_loo = 0;
  double looic = 0, se_looic = 0;
  std::vector<double> pointwise_elpd;  ///< per observation
  std::vector<double> pointwise_p;     ///< per observation: lpd_i - elpd_loo_i
  std::vector<double> pareto_k;        ///< per observation
  std::vector<double> r_eff;           ///< per observation
};

/// `log_lik[i]`: observation i's log likelihood, one vector of draws per chain (every
/// observation with the same chains and draws).
/// @throws ArgumentError for no observations, mismatched chains, or a NaN or +inf value.
LooResult psis_loo(const std::vector<Draws>& log_lik);

/// loo's relative_eff of one observation: ESS(exp(log_lik)) / S, with ess() (the same
/// Geyer truncation as loo's ess_rfun); 1 for constant draws.
double relative_efficiency(const Draws& log_lik);

/// One model's row of loo_compare: the difference of its elpd_loo from the best model's
/// and the standard error of that difference (from the pointwise differences), beside its
/// own estimates.
struct LooComparison {
  std::string name;
  double elpd_diff = 0, se_diff = 0;
  double elpd_loo = 0, se_elpd_loo = 0;
  double p_loo = 0, se_p_loo = 0;
  double looic = 0, se_looic = 0;
};

/// The models ranked by elpd_loo, best first, as loo::loo_compare.
/// @throws ArgumentError if they do not have the same observations (count).
std::vector<LooComparison> compare_loo(const std::vector<std::string>& names, const std::vector<LooResult>& fits);

}  // namespace variate::diagnostics
