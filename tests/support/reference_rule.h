#pragma once
/// posteriordb's rule for comparing a run's summary with a reference posterior's: each mean
/// within 4 standard errors (the run's MCSE and the reference's own), each sd within
/// max(10%, 4/sqrt(2 ESS)), and R-hat < 1.01. The summaries are `--summary-json`'s
/// "parameters" objects; a reference holds mean and sd per parameter, and mcse_mean where
/// it is a run of ours (else its error is sd/sqrt(reference_draws)).

#include <algorithm>
#include <cmath>

#include <QStringList>
#include <nlohmann/json.hpp>

namespace variate::testing {

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
    if (!(std::abs(z) <= 4)) problems << QString("mean %1 vs %2 (z %3)").arg(mean).arg(ref_mean).arg(z);
    if (!(std::abs(sd / ref_sd - 1) <= tolerance)) problems << QString("sd %1 vs %2").arg(sd).arg(ref_sd);
    if (!(rhat < 1.01)) problems << QString("r_hat %1").arg(rhat);
    if (!problems.isEmpty()) failures << QString::fromStdString(parameter) + ": " + problems.join("; ");
  }
  return failures;
}

}  // namespace variate::testing
