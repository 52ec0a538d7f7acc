// Geyer (1992), "Practical Markov chain Monte Carlo", Sec. 3.3 (the biased estimator);
// computed as in Stan's autocovariance() and posterior's autocovariance(): zero-pad the
// centered chain to a length >= 2n (here a power of two), so that the circular correlation
// of the FFT equals the linear one, and take |FFT|^2 back. O(n log n).

#include "engine/diagnostics/autocovariance.h"

#include <complex>
#include <numeric>

#include "engine/diagnostics/fft.h"

namespace variate::diagnostics {

std::vector<double> mean_autocovariance(const Draws& chains) {
  check_draws("mean_autocovariance", chains);
  const auto n = draws_per_chain(chains);
  if (n == 0) return {};
  const std::size_t m = chains.size();
  const std::size_t padded = next_power_of_two(2 * n);
  const Fft& fft = Fft::of_size(padded);
  // Two chains per transform, x + i y: with Z = F(x + i y), |X_k|^2 + |Y_k|^2 =
  // (|Z_k|^2 + |Z_{-k}|^2) / 2. The inverse is linear: sum the chains' power spectra and
  // invert once.
  std::vector<std::complex<double>> power(padded), both(padded);
  for (std::size_t c = 0; c < m; c += 2) {
    const double mean_x = std::accumulate(chains[c].begin(), chains[c].end(), 0.0) / static_cast<double>(n);
    const double mean_y =
        c + 1 < m ? std::accumulate(chains[c + 1].begin(), chains[c + 1].end(), 0.0) / static_cast<double>(n) : 0.0;
    for (std::size_t i = 0; i < padded; ++i) {
      both[i] = i < n ? std::complex<double>(chains[c][i] - mean_x, c + 1 < m ? chains[c + 1][i] - mean_y : 0.0) : 0.0;
    }
    fft.forward(both);
    for (std::size_t k = 0; k < padded; ++k) {
      const std::complex<double>& z = both[k];
      const std::complex<double>& mirror = both[(padded - k) % padded];
      power[k] += 0.5 * (z.real() * z.real() + z.imag() * z.imag() + mirror.real() * mirror.real() +
                         mirror.imag() * mirror.imag());
    }
  }
  // The unnormalized inverse gives `padded` times the lagged sums of products.
  fft.backward(power);
  std::vector<double> gamma(n);
  const double scale = static_cast<double>(padded) * static_cast<double>(n) * static_cast<double>(m);
  for (std::size_t lag = 0; lag < n; ++lag) gamma[lag] = power[lag].real() / scale;
  return gamma;
}

std::vector<double> autocovariance(const std::vector<double>& chain) {
  return mean_autocovariance(Draws{chain});
}

}  // namespace variate::diagnostics
