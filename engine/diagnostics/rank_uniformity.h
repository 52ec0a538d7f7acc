#pragma once
/// Whether ranks are uniform, as simulation-based calibration asks of each parameter
/// (Talts, Betancourt, Simpson, Vehtari & Gelman 2018): a rank is the number of a fit's
/// (thinned) posterior draws below the value the data were simulated from, one of
/// 0 ... max_rank, uniform over them when the fit is calibrated. Two tests:
///
/// - The ECDF of the fractional ranks u = (rank + 1) / (max_rank + 1) against the
///   simultaneous band of Säilynoja, Bürkner & Vehtari (2022, "Graphical test for discrete
///   uniformity and its applications in goodness-of-fit evaluation and multiple sample
///   comparison"): at z_k = k / K, k = 0 ... K with K = max_rank + 1 (each possible rank,
///   so the count below z_k is exactly Binomial(N, z_k) under uniformity), each count in
///   its central binomial interval of tail gamma, gamma adjusted so that all of them hold
///   together with probability `prob` (the paper's optimization, with the exact interior
///   probability of its recursion, as bayesplot's adjust_gamma_optimize).
/// - Pearson's chi-square of the ranks in `bins` bins of (nearly) equal width, each
///   expected count its width's share.
///
///   const EcdfTest ecdf = ecdf_uniformity(ranks, 100, 0.99);   // ecdf.uniform
///   const ChiSquareTest chi = binned_chi_square(ranks, 100, default_bins(200, 100));

#include <cstdint>
#include <vector>

namespace variate::diagnostics {

/// The smallest x with P(X <= x) >= q for X ~ Binomial(n, p), with R's qbinom's allowance
/// for rounding (q lowered by 64 ulps), so the bands equal the published code's.
int64_t binomial_quantile(double q, int64_t n, double p);

/// The number of `draws` below `truth`: its rank among them.
int64_t rank_of(double truth, const std::vector<double>& draws);

/// Bounds on the ECDF's counts at z_k = k / K, k = 0 ... K, for N uniform values.
struct EcdfBand {
  double gamma = 0;                   ///< each interval's tail probability
  double prob = 0;                    ///< the probability that all counts are inside together
  std::vector<int64_t> lower, upper;  ///< K + 1 each
};

/// The band whose counts all hold together with the probability closest to `prob`: the
/// gamma the paper's optimization asks for (bayesplot's golden-section search can stop on
/// a step of the coverage farther from it; tst_rank_uniformity compares).
/// @throws ArgumentError unless n >= 1, k >= 1 and 0 < prob < 1.
EcdfBand simultaneous_ecdf_band(int64_t n, int64_t k, double prob);

/// Each count's central binomial interval of tail `gamma`: [qbinom(gamma / 2, N, z_k),
/// qbinom(1 - gamma / 2, N, z_k)], as the paper draws them.
EcdfBand ecdf_band_of_gamma(int64_t n, int64_t k, double gamma);

/// The probability that all N counts are inside the intervals the optimization scores
/// gamma by (the lower quantiles, and the upper ones N less the lower at 1 - z).
double simultaneous_coverage(int64_t n, int64_t k, double gamma);

struct EcdfTest {
  EcdfBand band;
  std::vector<int64_t> counts;  ///< ranks below each z_k: counts[k] = #{rank < k}
  bool uniform = true;
  /// The first k whose count is outside the band; -1 when none is.
  int64_t first_outside = -1;
};

/// @throws ArgumentError for no ranks, or one outside 0 ... max_rank.
EcdfTest ecdf_uniformity(const std::vector<int64_t>& ranks, int64_t max_rank, double prob);
/// The same against a band made for ranks.size() values and K = max_rank + 1.
/// @throws ArgumentError as above, or for a band of another size.
EcdfTest ecdf_uniformity(const std::vector<int64_t>& ranks, int64_t max_rank, const EcdfBand& band);

struct ChiSquareTest {
  std::vector<int64_t> counts;   ///< per bin
  std::vector<double> expected;  ///< per bin
  double statistic = 0;
  int degrees_of_freedom = 0;
  double p_value = 1;
};

/// Bin b holds the ranks r with floor(b (max_rank + 1) / bins) <= r < floor((b + 1)
/// (max_rank + 1) / bins). @throws ArgumentError as ecdf_uniformity, or for bins outside
/// 2 ... max_rank + 1.
ChiSquareTest binned_chi_square(const std::vector<int64_t>& ranks, int64_t max_rank, int bins);

/// As many bins as keep five expected ranks in each, at most 20 and at most one per rank;
/// at least 2.
int default_bins(int64_t replications, int64_t max_rank);

}  // namespace variate::diagnostics
