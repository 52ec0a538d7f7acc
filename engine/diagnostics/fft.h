#pragma once
/// The discrete Fourier transform of a power-of-two length, for the autocovariances behind
/// ESS: iterative radix-2 Cooley-Tukey, in place, with the bit-reversal order and the
/// twiddle factors computed once per length (and kept per thread). Plain C++, so that
/// summarizing draws needs no tensor library.
///
///   const Fft& fft = Fft::of_size(1024);
///   fft.forward(values);   // values[k] = sum_j values[j] e^{-2 pi i jk/n}, in place

#include <complex>
#include <cstddef>
#include <vector>

namespace variate::diagnostics {

class Fft {
 public:
  /// The transform of length `n`, a power of two.
  /// @throws ArgumentError for another length.
  explicit Fft(std::size_t n);
  /// This thread's transform of length `n`, made on first use.
  static const Fft& of_size(std::size_t n);

  std::size_t size() const { return n_; }
  /// X_k = sum_j x_j exp(-2 pi i j k / n), in place, for x of length n.
  void forward(std::vector<std::complex<double>>& x) const { transform(x, -1); }
  /// x_j = sum_k X_k exp(+2 pi i j k / n), in place: the inverse without the 1/n.
  void backward(std::vector<std::complex<double>>& x) const { transform(x, +1); }

 private:
  void transform(std::vector<std::complex<double>>& x, int sign) const;

  std::size_t n_;
  std::vector<std::size_t> reversed_;           // the bit-reversed index of each index
  std::vector<std::complex<double>> twiddles_;  // exp(-2 pi i k / n), k < n / 2
};

/// The smallest power of two >= n (1 for n <= 1).
std::size_t next_power_of_two(std::size_t n);

}  // namespace variate::diagnostics
