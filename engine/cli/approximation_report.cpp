#include "engine/cli/approximation_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/cli/summary_variables.h"
#include "engine/diagnostics/psis.h"

namespace variate::cli {

std::string number(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

namespace {

std::string plain_table(const std::vector<io::SummaryRow>& rows) {
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

}  // namespace

std::string format_table(const std::vector<io::SummaryRow>& rows, const std::optional<std::string>& variables) {
  return with_chosen_rows(rows, variables, plain_table);
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


}  // namespace variate::cli
