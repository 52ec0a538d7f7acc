#include "report.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace variate::bench {

std::string number(double value, int precision) {
  if (std::isnan(value)) return "n/a";
  std::ostringstream text;
  text.setf(std::ios::fixed);
  text.precision(precision);
  text << value;
  return text.str();
}

std::string scientific(double value) {
  if (std::isnan(value)) return "n/a";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1e", value);
  return buffer;
}

std::string ratio(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? "n/a" : number(a / b) + "x";
}

void row(const std::string& label, const std::vector<std::string>& cells, int label_width, int cell_width) {
  std::printf("  %-*s", label_width, label.c_str());
  for (const auto& cell : cells) std::printf("%*s", cell_width, cell.c_str());
  std::printf("\n");
}

}  // namespace variate::bench
