#include "engine/diagnostics/fft.h"

#include <cmath>
#include <map>
#include <memory>
#include <utility>

#include "engine/core/argument_error.h"

namespace variate::diagnostics {

std::size_t next_power_of_two(std::size_t n) {
  std::size_t power = 1;
  while (power < n) power *= 2;
  return power;
}

Fft::Fft(std::size_t n) : n_(n) {
  if (n == 0 || (n & (n - 1)) != 0) {
    throw ArgumentError("Fft: the length must be a power of two, got " + std::to_string(n));
  }
  std::size_t bits = 0;
  while ((std::size_t{1} << bits) < n) ++bits;
  reversed_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t r = 0;
    for (std::size_t b = 0; b < bits; ++b) r |= ((i >> b) & 1) << (bits - 1 - b);
    reversed_[i] = r;
  }
  twiddles_.resize(n / 2);
  const double pi = std::acos(-1.0);
  for (std::size_t k = 0; k < n / 2; ++k) {
    const double angle = -2 * pi * static_cast<double>(k) / static_cast<double>(n);
    twiddles_[k] = {std::cos(angle), std::sin(angle)};
  }
}

const Fft& Fft::of_size(std::size_t n) {
  thread_local std::map<std::size_t, std::unique_ptr<Fft>> made;
  auto& fft = made[n];
  if (!fft) fft = std::make_unique<Fft>(n);
  return *fft;
}

// The products are written out: std::complex's operator* checks for NaN on every call.
void Fft::transform(std::vector<std::complex<double>>& x, int sign) const {
  if (x.size() != n_) throw ArgumentError("Fft: the input must have the transform's length");
  for (std::size_t i = 0; i < n_; ++i) {
    if (i < reversed_[i]) std::swap(x[i], x[reversed_[i]]);
  }
  auto* data = reinterpret_cast<double*>(x.data());  // re, im, re, im, ... as the standard allows
  for (std::size_t length = 2; length <= n_; length *= 2) {
    const std::size_t half = length / 2, step = n_ / length;
    for (std::size_t start = 0; start < n_; start += length) {
      for (std::size_t j = 0; j < half; ++j) {
        const double w_re = twiddles_[j * step].real(), w_im = -sign * twiddles_[j * step].imag();
        double* u = data + 2 * (start + j);
        double* v = data + 2 * (start + j + half);
        const double t_re = v[0] * w_re - v[1] * w_im;
        const double t_im = v[0] * w_im + v[1] * w_re;
        v[0] = u[0] - t_re;
        v[1] = u[1] - t_im;
        u[0] += t_re;
        u[1] += t_im;
      }
    }
  }
}

}  // namespace variate::diagnostics
