#pragma once
// What the commands whose draws are independent draws from an approximation (fit,
// optimize --laplace-draws, pathfinder) print about them: a summary table without R-hat
// and ESS, and the PSIS k-hat of their importance ratios p/q with its warning.

#include <ostream>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

#include "engine/io/summary_report.h"

namespace variate::cli {

/// Mean, sd and quantiles of each column. R-hat and ESS estimate nothing here (every draw
/// is independent), so, as cmdstanr's summary of a variational fit, the table leaves them
/// out; the JSON keeps sample's layout with ess = S, mcse = sd / sqrt(S) (exact for
/// independent draws) and r_hat = null.
std::vector<io::SummaryRow> summarize_draws(const std::vector<std::vector<double>>& rows,
                                            const std::vector<std::string>& names);

/// The table of summarize_draws(): name, Mean, StdDev, 5%, 50%, 95%.
std::string format_table(const std::vector<io::SummaryRow>& rows);

/// PSIS k-hat of log_p - log_q (Yao, Vehtari, Simpson & Gelman 2018): how far q is from
/// the posterior where it matters for estimates. NaN when a ratio is NaN or +inf.
double importance_k_hat(const at::Tensor& log_p, const at::Tensor& log_q);

/// "Pareto k-hat of the importance ratios p/q: 0.42", and above 0.7 a warning that says
/// what it means and what to try (`remedy`).
void print_k_hat(std::ostream& out, double k_hat, const std::string& remedy);

/// k-hat for a summary JSON: a number, null (NaN) or "Inf".
std::string k_hat_json(double k_hat);

/// A printf-style number.
std::string number(const char* format, double value);

/// Rows of a [n, d] float64 tensor.
std::vector<std::vector<double>> tensor_rows(const at::Tensor& points);

}  // namespace variate::cli
