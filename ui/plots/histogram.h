#pragma once
/// Counts of values in bins of equal width.

#include <vector>

namespace variate::ui {

struct Histogram {
  double lower = 0;
  double width = 0;
  std::vector<int> counts;
  double center(int bin) const { return lower + (bin + 0.5) * width; }
};

/// `bins` bins over [lower, upper]; a value equal to `upper` counts in the last bin,
/// values outside or non-finite are not counted. Empty counts unless lower < upper.
Histogram histogram(const std::vector<double>& values, int bins, double lower, double upper);

}  // namespace variate::ui
