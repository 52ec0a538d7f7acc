#pragma once
/// What the methods whose draws are independent draws from an approximation (ADVI, the
/// Laplace approximation, Pathfinder) share: their summary (no R-hat or ESS), the PSIS
/// k-hat of their importance ratios p/q, and their record in a project as the run's one
/// chain with CmdStan's variational columns (lp__ written as 0, log_p__, log_g__) before
/// the outputs.

#include <string>
#include <vector>

#include <ATen/core/Tensor.h>
#include <nlohmann/json.hpp>

#include "engine/io/summary_report.h"
#include "engine/services/run_observers.h"
#include "engine/store/project.h"

namespace variate::services {

/// Rows of a [n, d] tensor, as doubles.
Rows tensor_rows(const at::Tensor& points);

/// Mean, sd and quantiles of each column. R-hat and ESS estimate nothing here (every draw
/// is independent), so ess = S, mcse = sd / sqrt(S) (exact for independent draws) and
/// r_hat = NaN.
std::vector<io::SummaryRow> summarize_draws(const Rows& rows, const std::vector<std::string>& names);

/// PSIS k-hat of log_p - log_q (Yao, Vehtari, Simpson & Gelman 2018): how far q is from
/// the posterior where it matters for estimates. NaN when a ratio is NaN or +inf.
double importance_k_hat(const at::Tensor& log_p, const at::Tensor& log_q);

/// k-hat for a JSON document: a number, null (NaN) or "Inf".
nlohmann::ordered_json k_hat_json(double k_hat);

/// A number for a JSON document: null when not finite.
nlohmann::ordered_json finite_json(double x);

/// The columns such a run records: the variational ones, then `outputs`.
std::vector<std::string> approximation_columns(const std::vector<std::string>& outputs);

/// Records `rows` (the outputs of each draw) with each draw's log p and log q as run
/// `run`'s one chain, ended (stopped early when `stopped_early`; `last_position`
/// unconstrained). @throws store::ProjectError if the write fails.
void record_approximation_draws(store::Project& project, store::Id run, const Rows& rows, const at::Tensor& log_p,
                                const at::Tensor& log_q, const std::vector<double>& last_position, bool stopped_early);

}  // namespace variate::services
