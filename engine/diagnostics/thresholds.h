#pragma once
/// The convergence rule every report applies — `variate sample`'s warnings, the studio's
/// diagnostics table and the canvas's tint — so that one run gets one verdict everywhere.
/// Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021), "Rank-normalization, folding, and
/// localization: an improved R-hat for assessing convergence of MCMC", Bayesian Analysis
/// 16(2), Sec. 4: use the draws when the rank-normalized split R-hat is below 1.01 and the
/// bulk and tail ESS are at least 100 per chain (400 for four chains).
///
///   convergence_verdict(1.004, 512, 388, 4).converged()  // false: tail ESS below 400

#include <cstdint>

namespace variate::diagnostics {

/// R-hat must be below this.
inline constexpr double kMaxRhat = 1.01;
/// Bulk and tail ESS must be at least this, per chain.
inline constexpr double kMinEssPerChain = 100;

/// The rule's bounds: the published ones unless a user asks for others (auto-stop's
/// --until-rhat and --until-ess).
struct ConvergenceRule {
  double max_rhat = kMaxRhat;
  double min_ess_per_chain = kMinEssPerChain;

  /// The least acceptable ESS of `chains` chains (counted as one when fewer).
  double min_ess(int64_t chains) const;
};

/// The least acceptable ESS of `chains` chains under the published rule.
double min_ess(int64_t chains);

/// Whether one statistic fails the rule. NaN (a constant quantity, too few draws) is not
/// flagged: it says nothing either way.
bool rhat_flagged(double r_hat, const ConvergenceRule& rule = {});
bool ess_flagged(double ess, int64_t chains, const ConvergenceRule& rule = {});

/// What the rule says of one quantity.
struct ConvergenceVerdict {
  bool rhat_high = false;  ///< R-hat >= kMaxRhat
  bool ess_low = false;    ///< bulk or tail ESS below min_ess(chains)
  bool converged() const { return !rhat_high && !ess_low; }
};

ConvergenceVerdict convergence_verdict(double r_hat, double ess_bulk, double ess_tail, int64_t chains,
                                       const ConvergenceRule& rule = {});

}  // namespace variate::diagnostics
