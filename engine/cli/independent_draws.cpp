#include "engine/cli/independent_draws.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <ATen/ATen.h>

#include "engine/diagnostics/psis.h"
#include "engine/diagnostics/quantiles.h"

namespace variate::cli {

std::string number(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::vector<std::vector<double>> tensor_rows(const at::Tensor& points) {
  const at::Tensor p = points.to(at::kDouble).contiguous();
  std::vector<std::vector<double>> rows(p.size(0));
  for (int64_t i = 0; i < p.size(0); ++i) {
    rows[i].assign(p[i].data_ptr<double>(), p[i].data_ptr<double>() + p.size(1));
  }
  return rows;
}

std::vector<io::SummaryRow> summarize_draws(const std::vector<std::vector<double>>& rows,
                                            const std::vector<std::string>& names) {
  std::vector<io::SummaryRow> summary;
  const double s = static_cast<double>(rows.size());
  for (size_t k = 0; k < names.size(); ++k) {
    std::vector<double> column;
    for (const auto& row : rows) column.push_back(row[k]);
    double mean = 0, squares = 0;
    for (const double x : column) mean += x / s;
    for (const double x : column) squares += (x - mean) * (x - mean);
    const double sd = rows.size() > 1 ? std::sqrt(squares / (s - 1)) : NAN;
    const auto q = diagnostics::quantiles(column, {0.05, 0.5, 0.95});
    summary.push_back({names[k], mean, sd / std::sqrt(s), sd, q[0], q[1], q[2], s, s, NAN});
  }
  return summary;
}

std::string format_table(const std::vector<io::SummaryRow>& rows) {
  std::vector<std::vector<std::string>> table = {{"", "Mean", "StdDev", "5%", "50%", "95%"}};
  for (const auto& r : rows) {
    table.push_back({r.name, number("%.3g", r.mean), number("%.3g", r.sd), number("%.3g", r.q5),
                     number("%.3g", r.q50), number("%.3g", r.q95)});
  }
  std::vector<size_t> widths(table.front().size(), 0);
  for (const auto& line : table) {
    for (size_t c = 0; c < line.size(); ++c) widths[c] = std::max(widths[c], line[c].size());
  }
  std::string text;
  for (const auto& line : table) {
    text += line[0] + std::string(widths[0] - line[0].size(), ' ');
    for (size_t c = 1; c < line.size(); ++c) {
      text += std::string(2 + widths[c] - line[c].size(), ' ') + line[c];
    }
    text += '\n';
  }
  return text;
}

double importance_k_hat(const at::Tensor& log_p, const at::Tensor& log_q) {
  const at::Tensor ratios = (log_p - log_q).to(at::kDouble).contiguous();
  return diagnostics::importance_k_hat(
      std::vector<double>(ratios.data_ptr<double>(), ratios.data_ptr<double>() + ratios.numel()));
}

void print_k_hat(std::ostream& out, double k_hat, const std::string& remedy) {
  if (std::isnan(k_hat)) {
    out << "Pareto k-hat of the importance ratios p/q: not available (a draw's log density is NaN)\n";
    return;
  }
  out << "Pareto k-hat of the importance ratios p/q: " << number("%.2f", k_hat) << "\n";
  if (k_hat > diagnostics::kPsisKHatThreshold) {
    out << "Warning: k-hat is above " << diagnostics::kPsisKHatThreshold
        << ": the approximation misses much of the posterior's mass (Yao et al. 2018), so its means, sds and "
           "intervals may be far off. "
        << remedy << "\n";
  }
}

std::string k_hat_json(double k_hat) {
  if (std::isnan(k_hat)) return "null";
  if (std::isinf(k_hat)) return "\"Inf\"";
  return number("%.17g", k_hat);
}

}  // namespace variate::cli
