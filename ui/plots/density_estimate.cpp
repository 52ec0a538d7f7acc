#include "ui/plots/density_estimate.h"

#include <algorithm>
#include <cmath>

namespace variate::ui {
namespace {

std::vector<double> finite(const std::vector<double>& values) {
  std::vector<double> kept;
  kept.reserve(values.size());
  for (double v : values) {
    if (std::isfinite(v)) kept.push_back(v);
  }
  return kept;
}

double quantileSorted(const std::vector<double>& sorted, double p) {
  const double h = (sorted.size() - 1) * p;
  const size_t lo = static_cast<size_t>(std::floor(h));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

}  // namespace

double silvermanBandwidth(std::vector<double> values) {
  values = finite(values);
  const size_t n = values.size();
  if (n < 2) return 0;
  double mean = 0;
  for (double v : values) mean += v;
  mean /= n;
  double ss = 0;
  for (double v : values) ss += (v - mean) * (v - mean);
  const double sd = std::sqrt(ss / (n - 1));
  std::sort(values.begin(), values.end());
  const double iqr = quantileSorted(values, 0.75) - quantileSorted(values, 0.25);
  const double spread = iqr > 0 ? std::min(sd, iqr / 1.34) : sd;
  return 0.9 * spread * std::pow(static_cast<double>(n), -0.2);
}

DensityCurve densityEstimate(const std::vector<double>& values, int gridSize) {
  const std::vector<double> kept = finite(values);
  const double h = silvermanBandwidth(kept);
  DensityCurve curve;
  if (!(h > 0) || gridSize < 2) return curve;
  const auto [minIt, maxIt] = std::minmax_element(kept.begin(), kept.end());
  const double lo = *minIt - 3 * h, hi = *maxIt + 3 * h;
  const double dx = (hi - lo) / (gridSize - 1);
  // Linear binning: each value splits its unit weight between the two nearest grid points.
  std::vector<double> counts(gridSize, 0.0);
  for (double v : kept) {
    const double position = (v - lo) / dx;
    const int i = std::min(static_cast<int>(position), gridSize - 2);
    const double fraction = position - i;
    counts[i] += 1 - fraction;
    counts[i + 1] += fraction;
  }
  const int reach = std::min(gridSize - 1, static_cast<int>(std::ceil(4 * h / dx)));
  std::vector<double> kernel(reach + 1);
  const double norm = 1.0 / (kept.size() * h * std::sqrt(2 * M_PI));
  for (int j = 0; j <= reach; ++j) kernel[j] = std::exp(-0.5 * std::pow(j * dx / h, 2)) * norm;
  curve.x.resize(gridSize);
  curve.y.resize(gridSize);
  for (int i = 0; i < gridSize; ++i) {
    double sum = 0;
    for (int j = std::max(0, i - reach); j <= std::min(gridSize - 1, i + reach); ++j) {
      sum += counts[j] * kernel[std::abs(i - j)];
    }
    curve.x[i] = lo + i * dx;
    curve.y[i] = sum;
  }
  return curve;
}

}  // namespace variate::ui
