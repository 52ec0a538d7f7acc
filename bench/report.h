#pragma once
/// Formatting the benchmark's tables: fixed-width rows of numbers and ratios, "n/a" for
/// figures that could not be measured.

#include <limits>
#include <string>
#include <vector>

namespace variate::bench {

constexpr double kNotAvailable = std::numeric_limits<double>::quiet_NaN();

/// "12.34", or "n/a" for NaN.
std::string number(double value, int precision = 2);
/// "1.2e-16", or "n/a".
std::string scientific(double value);
/// a / b as "0.42x", or "n/a".
std::string ratio(double a, double b);
/// A label padded to `label_width`, then right-aligned cells of `cell_width`.
void row(const std::string& label, const std::vector<std::string>& cells, int label_width = 50,
         int cell_width = 11);

}  // namespace variate::bench
