#include "engine/io/summary_warnings.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/diagnostics/thresholds.h"
#include "engine/target/parameter_names.h"

namespace variate::io {
namespace {

constexpr double kMinEbfmi = 0.3;
constexpr size_t kMaxListedNames = 10;

std::string format(const char* format, double value) {
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// "14 of 4000 (0.35%)", as CmdStan's diagnose writes it.
std::string count_of(int64_t count, int64_t total) {
  char percent[32];
  std::snprintf(percent, sizeof percent, "%.2f",
                total > 0 ? 100.0 * static_cast<double>(count) / static_cast<double>(total) : 0.0);
  return std::to_string(count) + " of " + std::to_string(total) + " (" + percent + "%)";
}

// "mu, tau, theta[1]", at most ten names then "and N more".
std::string name_list(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size() && i < kMaxListedNames; ++i) {
    text += (i > 0 ? ", " : "") + names[i];
  }
  if (names.size() > kMaxListedNames) {
    text += " and " + std::to_string(names.size() - kMaxListedNames) + " more";
  }
  return text;
}

}  // namespace

std::vector<std::string> summary_warnings(const SamplerChecks& checks,
                                          const std::vector<SummaryRow>& parameters) {
  std::vector<std::string> lines;
  if (checks.divergences > 0) {
    lines.push_back(count_of(checks.divergences, checks.transitions) +
                    " transitions ended with a divergence. These divergent transitions "
                    "indicate that HMC is not fully able to explore the posterior "
                    "distribution. Try increasing adapt_delta closer to 1; if this doesn't "
                    "remove all divergences, try to reparameterize the model.");
  }
  if (checks.max_treedepth_hits > 0) {
    const std::string depth = std::to_string(checks.max_depth);
    lines.push_back(count_of(checks.max_treedepth_hits, checks.transitions) +
                    " transitions hit the maximum treedepth limit of " + depth + ", or 2^" +
                    depth + " leapfrog steps. Trajectories that are prematurely terminated "
                    "due to this limit will result in slow exploration. For optimal "
                    "performance, increase this limit.");
  }
  for (size_t chain = 0; chain < checks.ebfmi.size(); ++chain) {
    const double ebfmi = checks.ebfmi[chain];
    if (!(ebfmi < kMinEbfmi)) continue;  // NaN is not flagged
    char value[32];
    std::snprintf(value, sizeof value, "%.2f", ebfmi);
    lines.push_back("Chain " + std::to_string(chain + 1) + ": E-BFMI = " + value +
                    ", below the nominal threshold of 0.30, which suggests that HMC may have "
                    "trouble exploring the target distribution. If possible, try to "
                    "reparameterize the model.");
  }

  std::vector<std::string> high_rhat;
  std::vector<std::string> low_ess;
  for (const auto& row : parameters) {
    const std::string name = to_style(row.name, NameStyle::Bracketed);
    const auto verdict = diagnostics::convergence_verdict(row.r_hat, row.ess_bulk, row.ess_tail, checks.chains);
    if (verdict.rhat_high) high_rhat.push_back(name);
    if (verdict.ess_low) low_ess.push_back(name);
  }
  if (!high_rhat.empty()) {
    lines.push_back("The following parameters had rank-normalized split R-hat of " +
                    format("%.2f", diagnostics::kMaxRhat) + " or more: " + name_list(high_rhat) +
                    ". Such high values indicate "
                    "incomplete mixing and biased estimation; run longer chains or "
                    "reparameterize the model.");
  }
  if (!low_ess.empty()) {
    lines.push_back("The following parameters had bulk or tail effective sample size below " +
                    format("%.0f", diagnostics::min_ess(checks.chains)) + " (" +
                    format("%.0f", diagnostics::kMinEssPerChain) + " per chain): " + name_list(low_ess) +
                    ". Their posterior means and quantiles may be unreliable; run longer "
                    "chains.");
  }
  return lines;
}

}  // namespace variate::io
