#pragma once
// What the commands whose draws are independent draws from an approximation (fit,
// optimize --laplace-draws, pathfinder) print about them: a summary table without R-hat
// and ESS, and the PSIS k-hat of their importance ratios p/q with its warning.

#include <ostream>
#include <string>
#include <vector>

#include <optional>
#include <string>

#include "engine/io/summary_report.h"

namespace variate::cli {

/// The table of services::summarize_draws(): name, Mean, StdDev, 5%, 50%, 95%, of the
/// rows `variables` chooses (--summary-variables, io/summary_selection.h), then a line
/// naming what the default left out.
std::string format_table(const std::vector<io::SummaryRow>& rows, const std::optional<std::string>& variables);

/// "Pareto k-hat of the importance ratios p/q: 0.42", and above 0.7 a warning that says
/// what it means and what to try (`remedy`).
void print_k_hat(std::ostream& out, double k_hat, const std::string& remedy);

/// A printf-style number.
std::string number(const char* format, double value);

}  // namespace variate::cli
