#include "engine/diagnostics/rank_uniformity.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include <ATen/native/Math.h>

#include "engine/core/argument_error.h"

namespace variate::diagnostics {
namespace {

double log_binomial_pmf(int64_t x, int64_t n, double p) {
  if (x < 0 || x > n) return -INFINITY;
  if (p <= 0) return x == 0 ? 0.0 : -INFINITY;
  if (p >= 1) return x == n ? 0.0 : -INFINITY;
  const double choose = std::lgamma(n + 1.0) - std::lgamma(x + 1.0) - std::lgamma(n - x + 1.0);
  return choose + x * std::log(p) + (n - x) * std::log1p(-p);
}

// The probability that N uniform values give counts inside [lower_k, upper_k] at every
// z_k = k / K together: the recursion over the grid of Säilynoja et al. (2022), the count
// at z_k given the one at z_(k-1) being that plus Binomial(N - count, (z_k - z_(k-1)) /
// (1 - z_(k-1))).
double interior_probability(int64_t n, int64_t k, const std::vector<int64_t>& lower,
                            const std::vector<int64_t>& upper) {
  std::vector<double> p(n + 1, 0.0), next(n + 1, 0.0);
  p[0] = 1;  // the count at z_0 = 0
  int64_t from_lo = 0, from_hi = 0;
  for (int64_t i = 1; i <= k; ++i) {
    const double z1 = static_cast<double>(i - 1) / k, z2 = static_cast<double>(i) / k;
    const double step = i == k ? 1.0 : (z2 - z1) / (1 - z1);
    std::fill(next.begin(), next.end(), 0.0);
    for (int64_t x2 = lower[i]; x2 <= upper[i]; ++x2) {
      double sum = 0;
      for (int64_t x1 = from_lo; x1 <= std::min(from_hi, x2); ++x1) {
        if (p[x1] > 0) sum += p[x1] * std::exp(log_binomial_pmf(x2 - x1, n - x1, step));
      }
      next[x2] = sum;
    }
    std::swap(p, next);
    from_lo = lower[i];
    from_hi = upper[i];
  }
  double total = 0;
  for (int64_t x = from_lo; x <= from_hi; ++x) total += p[x];
  return total;
}

void check_band_arguments(int64_t n, int64_t k) {
  if (n < 1 || k < 1) {
    throw ArgumentError("simultaneous ECDF band: needs N >= 1 and K >= 1 (got N = " + std::to_string(n) +
                        ", K = " + std::to_string(k) + ")");
  }
}

void check_ranks(const std::vector<int64_t>& ranks, int64_t max_rank) {
  if (ranks.empty()) throw ArgumentError("rank uniformity: no ranks");
  if (max_rank < 0) throw ArgumentError("rank uniformity: max_rank " + std::to_string(max_rank) + " is negative");
  for (int64_t r : ranks) {
    if (r < 0 || r > max_rank) {
      throw ArgumentError("rank uniformity: rank " + std::to_string(r) + " is outside 0 ... " +
                          std::to_string(max_rank));
    }
  }
}

}  // namespace

int64_t binomial_quantile(double q, int64_t n, double p) {
  if (p <= 0) return 0;
  if (p >= 1) return n;
  const double target = q * (1 - 64 * DBL_EPSILON);
  double cdf = 0;
  for (int64_t x = 0; x < n; ++x) {
    cdf += std::exp(log_binomial_pmf(x, n, p));
    if (cdf >= target) return x;
  }
  return n;
}

int64_t rank_of(double truth, const std::vector<double>& draws) {
  return std::count_if(draws.begin(), draws.end(), [truth](double d) { return d < truth; });
}

double simultaneous_coverage(int64_t n, int64_t k, double gamma) {
  check_band_arguments(n, k);
  std::vector<int64_t> lower(k + 1, 0), upper(k + 1, 0);
  for (int64_t i = 1; i < k; ++i) lower[i] = binomial_quantile(gamma / 2, n, static_cast<double>(i) / k);
  for (int64_t i = 1; i < k; ++i) upper[i] = n - lower[k - i];
  lower[k] = upper[k] = n;  // every value is at most 1
  return interior_probability(n, k, lower, upper);
}

EcdfBand ecdf_band_of_gamma(int64_t n, int64_t k, double gamma) {
  check_band_arguments(n, k);
  EcdfBand band;
  band.gamma = gamma;
  band.lower.resize(k + 1);
  band.upper.resize(k + 1);
  for (int64_t i = 0; i <= k; ++i) {
    const double z = static_cast<double>(i) / k;
    band.lower[i] = binomial_quantile(gamma / 2, n, z);
    band.upper[i] = binomial_quantile(1 - gamma / 2, n, z);
  }
  band.prob = simultaneous_coverage(n, k, gamma);
  return band;
}

EcdfBand simultaneous_ecdf_band(int64_t n, int64_t k, double prob) {
  check_band_arguments(n, k);
  if (!(prob > 0 && prob < 1))
    throw ArgumentError("simultaneous ECDF band: prob " + std::to_string(prob) + " is not in (0, 1)");
  // Coverage falls as gamma grows, in steps: find where it crosses prob, then take the
  // step on either side that is closer to it.
  double covered = 0, uncovered = 1 - prob;  // coverage(covered) >= prob > coverage(uncovered)
  if (simultaneous_coverage(n, k, uncovered) >= prob) {
    covered = uncovered;
  } else {
    for (int i = 0; i < 60 && uncovered - covered > 1e-14; ++i) {
      const double middle = (covered + uncovered) / 2;
      (simultaneous_coverage(n, k, middle) >= prob ? covered : uncovered) = middle;
    }
    const double above = simultaneous_coverage(n, k, covered), below = simultaneous_coverage(n, k, uncovered);
    if (covered == 0 || prob - below < above - prob) covered = uncovered;
  }
  return ecdf_band_of_gamma(n, k, covered);
}

EcdfTest ecdf_uniformity(const std::vector<int64_t>& ranks, int64_t max_rank, double prob) {
  check_ranks(ranks, max_rank);
  return ecdf_uniformity(ranks, max_rank,
                         simultaneous_ecdf_band(static_cast<int64_t>(ranks.size()), max_rank + 1, prob));
}

EcdfTest ecdf_uniformity(const std::vector<int64_t>& ranks, int64_t max_rank, const EcdfBand& band) {
  check_ranks(ranks, max_rank);
  const int64_t k = max_rank + 1;
  if (static_cast<int64_t>(band.lower.size()) != k + 1 || band.lower.back() != static_cast<int64_t>(ranks.size())) {
    throw ArgumentError("rank uniformity: the band is not one for " + std::to_string(ranks.size()) +
                        " ranks of 0 ... " + std::to_string(max_rank));
  }
  EcdfTest test;
  test.band = band;
  test.counts.assign(k + 1, 0);
  for (int64_t r : ranks) ++test.counts[r + 1];  // u = (r + 1) / K is at most z_(r + 1)
  for (int64_t i = 1; i <= k; ++i) test.counts[i] += test.counts[i - 1];
  for (int64_t i = 0; i <= k; ++i) {
    if (test.counts[i] < test.band.lower[i] || test.counts[i] > test.band.upper[i]) {
      test.uniform = false;
      test.first_outside = i;
      break;
    }
  }
  return test;
}

ChiSquareTest binned_chi_square(const std::vector<int64_t>& ranks, int64_t max_rank, int bins) {
  check_ranks(ranks, max_rank);
  const int64_t values = max_rank + 1;
  if (bins < 2 || bins > values) {
    throw ArgumentError("chi-square of ranks: " + std::to_string(bins) + " bins for ranks 0 ... " +
                        std::to_string(max_rank) + " (2 ... " + std::to_string(values) + " fit)");
  }
  ChiSquareTest test;
  test.counts.assign(bins, 0);
  test.expected.assign(bins, 0.0);
  const auto start = [&](int64_t b) { return b * values / bins; };
  for (int b = 0; b < bins; ++b) {
    test.expected[b] = static_cast<double>(ranks.size()) * static_cast<double>(start(b + 1) - start(b)) / values;
  }
  std::vector<int64_t> starts;
  for (int b = 1; b < bins; ++b) starts.push_back(start(b));
  for (int64_t r : ranks) ++test.counts[std::upper_bound(starts.begin(), starts.end(), r) - starts.begin()];
  for (int b = 0; b < bins; ++b) {
    const double gap = static_cast<double>(test.counts[b]) - test.expected[b];
    test.statistic += gap * gap / test.expected[b];
  }
  test.degrees_of_freedom = bins - 1;
  test.p_value = calc_igammac(0.5 * test.degrees_of_freedom, 0.5 * test.statistic);
  return test;
}

int default_bins(int64_t replications, int64_t max_rank) {
  const int64_t by_count = replications / 5;
  return static_cast<int>(std::max<int64_t>(2, std::min<int64_t>({20, by_count, max_rank + 1})));
}

}  // namespace variate::diagnostics
