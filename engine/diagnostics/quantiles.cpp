// R's quantile(type = 7) (Hyndman & Fan 1996, definition 7), including R's way of
// interpolating, (1 - h) x[lo] + h x[hi], and of skipping it when x[hi] == x[lo] (which
// keeps infinite draws from producing NaN). Selection, not sorting: each quantile costs
// one nth_element on the part of the data not yet partitioned.

#include "engine/diagnostics/quantiles.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "engine/core/domain_error.h"

namespace variate::diagnostics {

std::vector<double> quantiles(std::vector<double> values, const std::vector<double>& probs) {
  if (!probs.empty()) {
    // Checked even under ValidationGuard: a bad prob would index out of range.
    for (std::size_t k = 0; k < probs.size(); ++k) {
      if (!(probs[k] >= 0 && probs[k] <= 1)) {
        throw DomainError("quantiles", "probs", "in [0, 1]", probs[k], {static_cast<int64_t>(k)});
      }
    }
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const bool has_nan =
      std::any_of(values.begin(), values.end(), [](double v) { return std::isnan(v); });
  if (values.empty() || has_nan) return std::vector<double>(probs.size(), nan);

  const std::size_t n = values.size();
  // Visit the probs in increasing order so that each selection only has to partition the
  // part above the previous one.
  std::vector<std::size_t> order(probs.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](auto i, auto j) { return probs[i] < probs[j]; });

  std::vector<double> result(probs.size());
  auto first_unsorted = values.begin();
  for (std::size_t k : order) {
    // 1-based as in R, so that h rounds exactly as R's does.
    const double index = 1 + static_cast<double>(n - 1) * probs[k];
    const auto lo = static_cast<std::size_t>(std::floor(index));
    const auto hi = static_cast<std::size_t>(std::ceil(index));
    const auto lo_it = values.begin() + static_cast<std::ptrdiff_t>(lo - 1);
    if (lo_it >= first_unsorted) std::nth_element(first_unsorted, lo_it, values.end());
    double q = *lo_it;
    if (hi > lo) {
      // The (lo + 1)-th order statistic is the smallest value above position lo.
      const double upper = *std::min_element(lo_it + 1, values.end());
      const double h = index - static_cast<double>(lo);
      if (upper != q) q = (1 - h) * q + h * upper;
    }
    result[k] = q;
    first_unsorted = lo_it;
  }
  return result;
}

double quantile(std::vector<double> values, double prob) {
  return quantiles(std::move(values), {prob}).front();
}

double quantile(const Draws& draws, double prob) { return quantile(pooled(draws), prob); }

double median(const Draws& draws) { return quantile(draws, 0.5); }

}  // namespace variate::diagnostics
