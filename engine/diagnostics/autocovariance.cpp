// Geyer (1992), "Practical Markov chain Monte Carlo", Sec. 3.3 (the biased estimator);
// computed as in Stan's autocovariance() and posterior's autocovariance(): zero-pad the
// centered chain to twice a 2,3,5-smooth length >= n, so that the circular correlation
// of the FFT equals the linear one, and take |FFT|^2 back. O(n log n).

#include "engine/diagnostics/autocovariance.h"

#include <ATen/ATen.h>

#include <cstring>
#include <limits>
#include <numeric>

namespace variate::diagnostics {
namespace {

// The smallest m >= n whose only prime factors are 2, 3 and 5 (fast for any FFT).
std::int64_t next_good_size(std::int64_t n) {
  if (n <= 2) return 2;
  for (;; ++n) {
    std::int64_t m = n;
    while (m % 2 == 0) m /= 2;
    while (m % 3 == 0) m /= 3;
    while (m % 5 == 0) m /= 5;
    if (m == 1) return n;
  }
}

}  // namespace

std::vector<double> mean_autocovariance(const Draws& chains) {
  check_draws("mean_autocovariance", chains);
  const auto n = static_cast<std::int64_t>(draws_per_chain(chains));
  if (n == 0) return {};
  const auto m = static_cast<std::int64_t>(chains.size());
  const std::int64_t padded = 2 * next_good_size(n);

  at::Tensor centered = at::zeros({m, padded}, at::kDouble);
  double* data = centered.data_ptr<double>();
  for (std::int64_t c = 0; c < m; ++c) {
    const auto& chain = chains[c];
    const double mean = std::accumulate(chain.begin(), chain.end(), 0.0) / n;
    double* row = data + c * padded;
    for (std::int64_t i = 0; i < n; ++i) row[i] = chain[i] - mean;
  }
  const at::Tensor spectrum = at::view_as_real(at::fft_rfft(centered, padded, 1)).contiguous();
  // The inverse transform is linear: sum the power spectra of the chains and invert once.
  // (A plain loop: ATen's strided reduction over chains and (re, im) costs more than the
  // FFT itself here.)
  const std::int64_t bins = spectrum.size(1);
  at::Tensor power = at::zeros({bins}, at::kDouble);
  const double* f = spectrum.data_ptr<double>();
  double* p = power.data_ptr<double>();
  for (std::int64_t c = 0; c < m; ++c) {
    const double* row = f + c * bins * 2;
    for (std::int64_t k = 0; k < bins; ++k)
      p[k] += row[2 * k] * row[2 * k] + row[2 * k + 1] * row[2 * k + 1];
  }
  // irfft's default ("backward") normalization divides by `padded`, which leaves the
  // lagged sums of products.
  const at::Tensor mean_over_chains =
      (at::fft_irfft(power, padded).narrow(0, 0, n) / static_cast<double>(n * m)).contiguous();

  std::vector<double> gamma(static_cast<std::size_t>(n));
  std::memcpy(gamma.data(), mean_over_chains.data_ptr<double>(), n * sizeof(double));
  return gamma;
}

std::vector<double> autocovariance(const std::vector<double>& chain) {
  return mean_autocovariance(Draws{chain});
}

}  // namespace variate::diagnostics
