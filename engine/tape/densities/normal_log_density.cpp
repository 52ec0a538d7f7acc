// Normal(mu, sigma): the hottest sink (y ~ Normal(X beta, sigma) over thousands of rows), so
// one kernel per combination of which operands vary and which arguments are vectors, each
// summing the pieces of families::Normal (normal_family.h) over the elements.

#include <array>
#include <cmath>
#include <utility>

#include "engine/distributions/parameters.h"
#include "engine/tape/densities/continuous_families.h"
#include "engine/tape/densities/density_sink.h"
#include "engine/tape/densities/normal_family.h"

namespace variate::tape {
namespace {

using distributions::kHalfLog2Pi;
using families::Normal;

// A scalar sigma: log(sigma) and 1 / sigma once, and the element loop only sums z^2 (and z
// for a scalar mu), from which the value and the scalar partials follow.
template <bool kXVaries, bool kMuVaries, bool kSigmaVaries, bool kMuVector>
void normal_scalar_sigma(const Instruction& op, Sweep& s) {
  const int64_t n = op.n;
  const double* x = s.values + op.in[0];
  const double* mu = s.values + op.in[1];
  double* x_adjoint = s.adjoints + op.in[0];
  double* mu_adjoint = s.adjoints + op.in[1];
  const double sigma = s.values[op.in[2]];
  const double inverse = 1.0 / sigma;
  const double log_sigma = std::log(sigma);
  // sums[0] = sum z^2, sums[1] = sum z (only for a scalar mu that varies).
  const auto sums = sum_in_four<2>(n, [&](int64_t i, double* sum) {
    const double z = Normal::standardized(x[i], mu[kMuVector ? i : 0], inverse);
    sum[0] += z * z;
    if constexpr (kMuVaries && !kMuVector) sum[1] += z;
    if constexpr (kXVaries) x_adjoint[i] -= Normal::location_partial(z, inverse);
    if constexpr (kMuVaries && kMuVector) mu_adjoint[i] += Normal::location_partial(z, inverse);
  });
  const auto count = static_cast<double>(n);
  s.lp += Normal::kernel(sums[0]) - count * (log_sigma + kHalfLog2Pi);
  if constexpr (kMuVaries && !kMuVector) mu_adjoint[0] += Normal::location_partial(sums[1], inverse);
  if constexpr (kSigmaVaries) s.adjoints[op.in[2]] += Normal::scale_partial(sums[0], count, inverse);
}

// A sigma per element.
template <bool kXVaries, bool kMuVaries, bool kSigmaVaries, bool kMuVector>
void normal_vector_sigma(const Instruction& op, Sweep& s) {
  const int64_t n = op.n;
  const double* x = s.values + op.in[0];
  const double* mu = s.values + op.in[1];
  const double* sigma = s.values + op.in[2];
  double* x_adjoint = s.adjoints + op.in[0];
  double* mu_adjoint = s.adjoints + op.in[1];
  double* sigma_adjoint = s.adjoints + op.in[2];
  // sums[0] = sum (-z^2 / 2 - log sigma), sums[1] = sum z / sigma (for a scalar mu).
  const auto sums = sum_in_four<2>(n, [&](int64_t i, double* sum) {
    const double inverse = 1.0 / sigma[i];
    const double z = Normal::standardized(x[i], mu[kMuVector ? i : 0], inverse);
    const double g = Normal::location_partial(z, inverse);
    sum[0] += Normal::kernel(z * z) - std::log(sigma[i]);
    if constexpr (kMuVaries && !kMuVector) sum[1] += g;
    if constexpr (kXVaries) x_adjoint[i] -= g;
    if constexpr (kMuVaries && kMuVector) mu_adjoint[i] += g;
    if constexpr (kSigmaVaries) sigma_adjoint[i] += Normal::scale_partial(z * z, 1.0, inverse);
  });
  s.lp += sums[0] - static_cast<double>(n) * kHalfLog2Pi;
  if constexpr (kMuVaries && !kMuVector) mu_adjoint[0] += sums[1];
}

template <bool kXVaries, bool kMuVaries, bool kSigmaVaries, bool kMuVector, bool kSigmaVector>
void normal_sink(const Instruction& op, Sweep& s) {
  if (op.n == 0) return;
  if constexpr (kSigmaVector) {
    normal_vector_sigma<kXVaries, kMuVaries, kSigmaVaries, kMuVector>(op, s);
  } else {
    normal_scalar_sigma<kXVaries, kMuVaries, kSigmaVaries, kMuVector>(op, s);
  }
}

// Kernel index: bit 0 x varies, 1 mu varies, 2 sigma varies, 3 mu is a vector, 4 sigma is.
template <size_t... I>
constexpr std::array<Kernel, sizeof...(I)> normal_kernels(std::index_sequence<I...>) {
  return {{&normal_sink<(I & 1) != 0, (I & 2) != 0, (I & 4) != 0, (I & 8) != 0, (I & 16) != 0>...}};
}

constexpr auto kNormalKernels = normal_kernels(std::make_index_sequence<32>{});

}  // namespace

bool emit_normal_log_density(ProgramBuilder& builder, const DensityTerm& term) {
  if (term.family != "Normal") return false;
  Instruction op = density_sink(term, 2, "normal_lpdf");
  const size_t index = (op.varying[0] ? 1 : 0) | (op.varying[1] ? 2 : 0) | (op.varying[2] ? 4 : 0) |
                       (op.stride[1] != 0 ? 8 : 0) | (op.stride[2] != 0 ? 16 : 0);
  op.forward = kNormalKernels[index];
  builder.append(op);
  return true;
}

}  // namespace variate::tape
