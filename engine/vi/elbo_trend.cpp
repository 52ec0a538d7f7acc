#include "engine/vi/elbo_trend.h"

#include <algorithm>
#include <cmath>

namespace variate {

ElboTrend elbo_trend(const std::vector<ElboEvaluation>& trace, int window) {
  // The evaluation that reduced eta closed the previous phase.
  size_t begin = 0;
  for (size_t i = 0; i < trace.size(); ++i) {
    if (trace[i].step_reduced) begin = i + 1;
  }
  const size_t n_phase = trace.size() - begin;
  const size_t n = std::min(n_phase, static_cast<size_t>(std::max(window, 0)));
  ElboTrend trend;
  if (n < 4) return trend;
  const size_t first = trace.size() - n;
  double mean_x = 0, mean_y = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(trace[first + i].elbo)) return trend;
    mean_x += static_cast<double>(i) / n;
    mean_y += trace[first + i].elbo / n;
  }
  double sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; ++i) {
    sxx += (i - mean_x) * (i - mean_x);
    sxy += (i - mean_x) * (trace[first + i].elbo - mean_y);
  }
  const double slope = sxy / sxx;
  double residuals = 0;
  for (size_t i = 0; i < n; ++i) {
    const double fitted = mean_y + slope * (i - mean_x);
    residuals += (trace[first + i].elbo - fitted) * (trace[first + i].elbo - fitted);
  }
  const double slope_se = std::sqrt(residuals / (n - 2) / sxx);
  trend.evaluations = static_cast<int>(n);
  trend.rise = slope * (n - 1);
  trend.standard_error = slope_se * (n - 1);
  trend.still_improving = trend.rise > 0 && trend.rise > 3 * trend.standard_error;
  return trend;
}

}  // namespace variate
