#include "ui/plots/histogram.h"

#include <algorithm>
#include <cmath>

namespace variate::ui {

Histogram histogram(const std::vector<double>& values, int bins, double lower, double upper) {
  Histogram h;
  if (!(lower < upper) || bins < 1) return h;
  h.lower = lower;
  h.width = (upper - lower) / bins;
  h.counts.assign(static_cast<size_t>(bins), 0);
  for (double value : values) {
    if (!(value >= lower && value <= upper)) continue;  // also skips NaN
    const int bin = std::min(bins - 1, static_cast<int>((value - lower) / h.width));
    ++h.counts[static_cast<size_t>(bin)];
  }
  return h;
}

}  // namespace variate::ui
