#pragma once
/// posteriordb's rule for comparing a run's summary with a reference posterior's: each mean
/// within 4 standard errors (the run's MCSE and the reference's own), each sd within
/// max(10%, 4/sqrt(2 ESS)), and R-hat < 1.01. The summaries are `--summary-json`'s
/// "parameters" objects; a reference holds mean and sd per parameter, and mcse_mean where
/// it is a run of ours (else its error is sd/sqrt(reference_draws)).
///
/// A parameter whose reference lists "quantiles" (probability -> value) has a tail too heavy
/// for a variance (reference.json's note says why): its q5, q50 and q95 are placed in the
/// reference's distribution by those quantiles (linearly between two), and each must land
/// within 4 standard errors of its probability p, sqrt(p (1 - p) (1 / ess_tail + 1 /
/// reference_draws)); its mean and sd are not compared.

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include <QStringList>
#include <nlohmann/json.hpp>

namespace variate::testing {

/// Where `value` falls in the distribution whose quantiles (probability -> value) are given:
/// linear between two; NaN outside them.
inline double reference_probability(const nlohmann::json& quantiles, double value) {
  double p_below = NAN, q_below = NAN;
  for (const auto& [key, q] : quantiles.items()) {  // keys in increasing order of probability
    const double p = std::stod(key), v = q.get<double>();
    if (value <= v) {
      if (std::isnan(q_below)) return value == v ? p : NAN;
      return v == q_below ? p : p_below + (p - p_below) * (value - q_below) / (v - q_below);
    }
    p_below = p, q_below = v;
  }
  return NAN;
}

// The quantile rule for a heavy-tailed parameter; its problems.
inline QStringList quantile_problems(const nlohmann::json& s, const nlohmann::json& quantiles, double reference_draws) {
  QStringList problems;
  const double ess = s["ess_tail"].is_number() ? s["ess_tail"].get<double>() : 1.0;
  for (const auto& [key, p] : {std::pair{"q5", 0.05}, std::pair{"q50", 0.5}, std::pair{"q95", 0.95}}) {
    const double value = s[key];
    const double where = reference_probability(quantiles, value);
    const double error = std::sqrt(p * (1 - p) * (1 / std::max(ess, 1.0) + 1 / reference_draws));
    if (!(std::abs(where - p) <= 4 * error)) {
      problems << QString("%1 %2 is the reference's %3 quantile (allowed %4 +- %5)")
                      .arg(key)
                      .arg(value)
                      .arg(where)
                      .arg(p)
                      .arg(4 * error);
    }
  }
  return problems;
}

/// One line per parameter of `reference` that `ours` misses or fails; empty when all pass.
inline QStringList reference_mismatches(const nlohmann::json& ours, const nlohmann::json& reference,
                                        double reference_draws) {
  QStringList failures;
  for (const auto& [parameter, r] : reference.items()) {
    if (!ours.contains(parameter)) {
      failures << QString::fromStdString(parameter) + ": missing";
      continue;
    }
    const nlohmann::json& s = ours[parameter];
    const double mean = s["mean"], sd = s["sd"], mcse = s["mcse_mean"];
    const double ess = s["ess_bulk"].is_number() ? s["ess_bulk"].get<double>() : 1.0;
    const double rhat = s["r_hat"].is_number() ? s["r_hat"].get<double>() : INFINITY;
    const double ref_mean = r["mean"], ref_sd = r["sd"];
    const double ref_se = r.contains("mcse_mean") ? r["mcse_mean"].get<double>() : ref_sd / std::sqrt(reference_draws);
    const double z = (mean - ref_mean) / std::sqrt(mcse * mcse + ref_se * ref_se);
    const double tolerance = std::max(0.10, 4 / std::sqrt(2 * std::max(ess, 1.0)));
    QStringList problems;
    if (r.contains("quantiles")) {
      problems = quantile_problems(s, r["quantiles"], reference_draws);
      if (!(rhat < 1.01)) problems << QString("r_hat %1").arg(rhat);
      if (!problems.isEmpty()) failures << QString::fromStdString(parameter) + ": " + problems.join("; ");
      continue;
    }
    if (!(std::abs(z) <= 4)) problems << QString("mean %1 vs %2 (z %3)").arg(mean).arg(ref_mean).arg(z);
    if (!(std::abs(sd / ref_sd - 1) <= tolerance)) problems << QString("sd %1 vs %2").arg(sd).arg(ref_sd);
    if (!(rhat < 1.01)) problems << QString("r_hat %1").arg(rhat);
    if (!problems.isEmpty()) failures << QString::fromStdString(parameter) + ": " + problems.join("; ");
  }
  return failures;
}

}  // namespace variate::testing
