#include "gradient_timing.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>

namespace variate::bench {
namespace {

constexpr double kBatchMs = 2.0;  // a batch's length: well above the clock's resolution

// One pass: every point once.
void pass(const DensityFunction& f, const std::vector<std::vector<double>>& points,
          std::vector<double>& gradient) {
  for (const auto& point : points) f(point, gradient);
}

}  // namespace

std::vector<std::vector<double>> standard_normal_points(int64_t dimension, int count,
                                                        uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal;
  std::vector<std::vector<double>> points(count, std::vector<double>(dimension));
  for (auto& point : points) {
    for (double& x : point) x = normal(random);
  }
  return points;
}

std::vector<double> us_per_gradient(const std::vector<DensityFunction>& functions,
                                    const std::vector<std::vector<double>>& points,
                                    const TimingOptions& options) {
  const size_t dimension = points.empty() ? 0 : points[0].size();
  std::vector<std::vector<double>> gradients(functions.size(), std::vector<double>(dimension));
  // How many passes make a batch of each function about kBatchMs long.
  std::vector<int> passes(functions.size());
  for (size_t k = 0; k < functions.size(); ++k) {
    const double one_pass_ms = median_ms([&] { pass(functions[k], points, gradients[k]); },
                                         {1, 3, options.thread_cpu_time});
    passes[k] = std::max(1, static_cast<int>(std::ceil(kBatchMs / std::max(one_pass_ms, 1e-6))));
  }
  std::vector<std::function<void()>> batches;
  for (size_t k = 0; k < functions.size(); ++k) {
    batches.push_back([&, k] {
      for (int i = 0; i < passes[k]; ++i) pass(functions[k], points, gradients[k]);
    });
  }
  const std::vector<double> ms = median_ms_interleaved(batches, options);
  std::vector<double> us;
  for (size_t k = 0; k < functions.size(); ++k) {
    us.push_back(1000.0 * ms[k] /
                 (static_cast<double>(passes[k]) * static_cast<double>(points.size())));
  }
  return us;
}

double max_relative_difference(const DensityFunction& a, const DensityFunction& b,
                               const std::vector<std::vector<double>>& points) {
  double worst = 0;
  for (const auto& point : points) {
    std::vector<double> ga(point.size()), gb(point.size());
    const double lp_a = a(point, ga);
    const double lp_b = b(point, gb);
    if (!std::isfinite(lp_a) || !std::isfinite(lp_b)) {
      if (std::isfinite(lp_a) != std::isfinite(lp_b))
        worst = std::numeric_limits<double>::infinity();
      continue;
    }
    worst = std::max(worst, std::abs(lp_a - lp_b) / std::max(1.0, std::abs(lp_b)));
    double scale = 1;
    for (double g : gb) scale = std::max(scale, std::abs(g));
    for (size_t i = 0; i < point.size(); ++i)
      worst = std::max(worst, std::abs(ga[i] - gb[i]) / scale);
  }
  return worst;
}

}  // namespace variate::bench
