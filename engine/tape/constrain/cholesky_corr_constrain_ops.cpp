// The Cholesky factor of a correlation matrix from unconstrained reals, formula for formula
// as engine/bijectors/cholesky_corr (Stan's transform), with its log-Jacobian as a sink.
//
// y holds rows of M = K(K-1)/2 entries, the strictly lower triangle row by row; x the
// K x K factors: L(i, j) = z_ij sqrt(left_ij) below the diagonal and L(i, i) =
// sqrt(left_ii), where z = tanh(y) and log left_ij = sum_{l<j} log(1 - z_il^2).
//
// Operands: in[0] y (n elements); in[1] a scratch slot of four blocks of n the forward fills
// for the backward and the sink: sqrt(left) at each entry, dz/dy, d log(1 - z^2) / dy and
// log(1 - z^2). dims[0] = K, dims[1] = M.

#include <cmath>

#include "engine/tape/constrain/constrain_kernels.h"

namespace variate::tape {
namespace {

constexpr double kLog2 = 0.69314718055994530942;

struct CorrEntry {
  double z;
  double log1m_z2;  // log(1 - z^2)
  double slope_z;
  double slope_log1m_z2;
};

// As CholeskyCorr's build_rows: tanh and log1p near 0; beyond |y| = 1/2, with s =
// sigmoid(-2|y|), tanh|y| = 1 - 2 s and log(1 - z^2) = 2 (log 2 - |y| + log_sigmoid(2|y|)),
// which keep their relative precision (and their slopes) as |y| grows.
CorrEntry corr_entry(double y) {
  const double a = std::abs(y);
  if (a < 0.5) {
    const double z = std::tanh(y);
    return {z, std::log1p(-z * z), 1 - z * z, -2 * z};
  }
  const double s = sigmoid(-2 * a);
  const LogSigmoids ls = log_sigmoids(2 * a);
  const double sign = y > 0 ? 1.0 : -1.0;
  return {y > 0 ? 1 - 2 * s : 2 * s - 1, 2 * (kLog2 - a + ls.at_x), 4 * s * (1 - s),
          sign * (4 * ls.slope_at_x - 2)};
}

struct CorrScratch {
  double* sqrt_left;
  double* slope_z;
  double* slope_log1m_z2;
  double* log1m_z2;
};

CorrScratch corr_scratch(const Instruction& op, const Sweep& s) {
  double* base = s.values + op.in[1];
  return {base, base + op.n, base + 2 * op.n, base + 3 * op.n};
}

void cholesky_corr_forward(const Instruction& op, Sweep& s) {
  const double* y = s.values + op.in[0];
  double* x = s.values + op.out;
  const CorrScratch scratch = corr_scratch(op, s);
  const int64_t k = op.dims[0];
  const int64_t m = op.dims[1];
  for (int64_t row = 0, out = 0; row < op.n; row += m, out += k * k) {
    int64_t i = row;
    for (int64_t r = 0; r < k; ++r) {
      double* x_row = x + out + r * k;
      double log_left = 0;
      for (int64_t c = 0; c < r; ++c, ++i) {
        const CorrEntry e = corr_entry(y[i]);
        scratch.sqrt_left[i] = std::exp(0.5 * log_left);
        scratch.slope_z[i] = e.slope_z;
        scratch.slope_log1m_z2[i] = e.slope_log1m_z2;
        scratch.log1m_z2[i] = e.log1m_z2;
        x_row[c] = e.z * scratch.sqrt_left[i];
        log_left += e.log1m_z2;
      }
      x_row[r] = std::exp(0.5 * log_left);
      for (int64_t c = r + 1; c < k; ++c) x_row[c] = 0;
    }
  }
}

// L(r, c) for c <= r depends on log left_rc with slope L(r, c) / 2, and log left_rc on the
// log(1 - z_rl^2) of the columns l < c.
void cholesky_corr_backward(const Instruction& op, Sweep& s) {
  const double* x = s.values + op.out;
  const double* ax = s.adjoints + op.out;
  double* ay = s.adjoints + op.in[0];
  const CorrScratch scratch = corr_scratch(op, s);
  const int64_t k = op.dims[0];
  const int64_t m = op.dims[1];
  for (int64_t row = 0, out = 0; row < op.n; row += m, out += k * k) {
    for (int64_t r = 1; r < k; ++r) {
      const double* x_row = x + out + r * k;
      const double* ax_row = ax + out + r * k;
      const int64_t first = row + r * (r - 1) / 2;
      double later = 0.5 * ax_row[r] * x_row[r];  // the adjoint of log(1 - z_rc^2)
      for (int64_t c = r; c-- > 0;) {
        const int64_t i = first + c;
        ay[i] += ax_row[c] * scratch.sqrt_left[i] * scratch.slope_z[i] +
                 later * scratch.slope_log1m_z2[i];
        later += 0.5 * ax_row[c] * x_row[c];
      }
    }
  }
}

// log|det J| = sum log(1 - z^2) + 1/2 sum_{c<r} log left_rc; log(1 - z_rc^2) is in the
// left of the r - 1 - c entries after it in its row.
void cholesky_corr_log_jacobian(const Instruction& op, Sweep& s) {
  double* ay = s.adjoints + op.in[0];
  const CorrScratch scratch = corr_scratch(op, s);
  const int64_t k = op.dims[0];
  const int64_t m = op.dims[1];
  double total = 0;
  for (int64_t row = 0; row < op.n; row += m) {
    double sum_log1m_z2 = 0;
    double sum_log_left = 0;
    int64_t i = row;
    for (int64_t r = 1; r < k; ++r) {
      double log_left = 0;
      for (int64_t c = 0; c < r; ++c, ++i) {
        sum_log_left += log_left;
        sum_log1m_z2 += scratch.log1m_z2[i];
        ay[i] += (1 + 0.5 * static_cast<double>(r - 1 - c)) * scratch.slope_log1m_z2[i];
        log_left += scratch.log1m_z2[i];
      }
    }
    total += sum_log1m_z2 + 0.5 * sum_log_left;
  }
  s.lp += total;
}

}  // namespace

Slot emit_cholesky_corr(ProgramBuilder& builder, const Slot& y, const Shape& constrained_shape) {
  const Slot x = builder.varying(constrained_shape);
  Instruction op;
  op.forward = cholesky_corr_forward;
  op.backward = cholesky_corr_backward;
  op.name = "cholesky_corr";
  op.out = x.offset;
  op.n = y.size;
  op.dims[0] = constrained_shape.back();
  op.dims[1] = y.shape.back();
  op.in[0] = y.offset;
  op.varying[0] = true;
  op.in[1] = builder.varying({4, y.size}).offset;
  builder.append(op);
  builder.append(jacobian_sink(op, cholesky_corr_log_jacobian, "cholesky_corr_log_jacobian"));
  return x;
}

}  // namespace variate::tape
