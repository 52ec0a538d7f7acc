// Betancourt (2016), arXiv:1604.00695, eq. 3 (the estimator of E-BFMI).

#include "engine/diagnostics/ebfmi.h"

#include <cmath>
#include <limits>
#include <numeric>

namespace variate::diagnostics {

double ebfmi(const std::vector<double>& energy) {
  const std::size_t n = energy.size();
  if (n < 2) return std::numeric_limits<double>::quiet_NaN();
  const double mean = std::accumulate(energy.begin(), energy.end(), 0.0) / n;
  double differences = 0;
  double deviations = (energy[0] - mean) * (energy[0] - mean);
  for (std::size_t i = 1; i < n; ++i) {
    const double step = energy[i] - energy[i - 1];
    differences += step * step;
    deviations += (energy[i] - mean) * (energy[i] - mean);
  }
  // Constant energy gives 0/0 and a non-finite one inf/inf or NaN: all NaN.
  if (!(deviations > 0) || !std::isfinite(deviations)) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  return differences / deviations;
}

}  // namespace variate::diagnostics
