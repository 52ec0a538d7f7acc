// MultiNormal(mu, Sigma) and MultiNormal(mu, scale_tril = L): one sink over every row of
// the value, with one factorization of the matrix per evaluation. Per row r = x - mu,
// z = L^-1 r and w = L^-T z = Sigma^-1 r:
//   log p = -|z|^2 / 2 - sum log L_ii - K log(2 pi) / 2,
//   d/dx = -w, d/dmu = w,
//   d/dSigma = -(Sigma^-1 - w w^T) / 2 (symmetric, as LibTorch's Cholesky backward gives),
//   d/dL = tril(w z^T) - diag(1 / L_ii) (the family reads L's lower triangle only).
// The pointwise op (`log_lik`) writes each row's log p; the draw op (`NAME_rep`) draws each
// row as mu + L z with z standard normal.

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "engine/distributions/parameters.h"
#include "engine/tape/densities/density_arguments.h"
#include "engine/tape/densities/multivariate_sinks.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

using distributions::kHalfLog2Pi;

// The lower Cholesky factor of the lower triangle of A (row-major K x K) into L, its upper
// triangle zeroed; false when a pivot is not positive (LAPACK's potrf fails there, and the
// family's density is then NaN, or an error with validation on).
bool cholesky(const double* A, int64_t K, double* L) {
  for (int64_t j = 0; j < K; ++j) {
    double pivot = A[j * K + j];
    for (int64_t k = 0; k < j; ++k) pivot -= L[j * K + k] * L[j * K + k];
    if (!(pivot > 0)) return false;
    const double diagonal = std::sqrt(pivot);
    L[j * K + j] = diagonal;
    for (int64_t i = 0; i < j; ++i) L[i * K + j] = 0;
    for (int64_t i = j + 1; i < K; ++i) {
      double entry = A[i * K + j];
      for (int64_t k = 0; k < j; ++k) entry -= L[i * K + k] * L[j * K + k];
      L[i * K + j] = entry / diagonal;
    }
  }
  return true;
}

// Sigma^-1 = L^-T L^-1 into `inverse`, through L^-1 in `scratch`.
void inverse_from_cholesky(const double* L, int64_t K, double* scratch, double* inverse) {
  double* L_inverse = scratch;  // lower triangular
  for (int64_t c = 0; c < K; ++c) {
    for (int64_t a = 0; a < c; ++a) L_inverse[a * K + c] = 0;
    for (int64_t a = c; a < K; ++a) {
      double v = a == c ? 1.0 : 0.0;
      for (int64_t k = c; k < a; ++k) v -= L[a * K + k] * L_inverse[k * K + c];
      L_inverse[a * K + c] = v / L[a * K + a];
    }
  }
  for (int64_t a = 0; a < K; ++a) {
    for (int64_t b = 0; b <= a; ++b) {
      double v = 0;
      for (int64_t k = a; k < K; ++k) v += L_inverse[k * K + a] * L_inverse[k * K + b];
      inverse[a * K + b] = v;
      inverse[b * K + a] = v;
    }
  }
}

// Operands: 0 the value [rows, K], 1 mu, 2 Sigma or L [K, K], 3 scratch [4 K^2 + 3 K].
// dims: rows, K, mu's rows, mu's entry stride (0 for one number per row). The pointwise
// op writes row i's log density to op.out + i, without partials.
template <bool kCovariance, bool kPointwise>
void multi_normal_kernel(const Instruction& op, Sweep& s) {
  const int64_t rows = op.dims[0];
  const int64_t K = op.dims[1];
  const int64_t mu_rows = op.dims[2];
  const int64_t mu_stride = op.dims[3];
  const int64_t mu_width = mu_stride == 0 ? 1 : K;
  const double* x = s.values + op.in[0];
  const double* mu = s.values + op.in[1];
  const double* matrix = s.values + op.in[2];
  double* x_adjoint = s.adjoints + op.in[0];
  double* mu_adjoint = s.adjoints + op.in[1];
  double* matrix_adjoint = s.adjoints + op.in[2];
  double* z = s.values + op.in[3];
  double* w = z + K;
  double* outer = w + K;  // sum over rows of w w^T (Sigma) or w z^T (L)
  double* factor = outer + K * K;
  double* inverse = factor + K * K;
  double* work = inverse + K * K;
  double* inverse_diagonal = work + K * K;
  const bool x_varies = op.varying[0];
  const bool mu_varies = op.varying[1];
  const bool matrix_varies = op.varying[2];
  const bool gradient = !kPointwise && (x_varies || mu_varies || matrix_varies);

  const double* L = matrix;
  if constexpr (kCovariance) {
    if (!cholesky(matrix, K, factor)) {
      if constexpr (kPointwise) {
        std::fill(s.values + op.out, s.values + op.out + rows, std::numeric_limits<double>::quiet_NaN());
      } else {
        s.failed = true;
      }
      return;
    }
    L = factor;
  }
  double half_log_det = 0;
  for (int64_t a = 0; a < K; ++a) {
    half_log_det += std::log(L[a * K + a]);
    inverse_diagonal[a] = 1 / L[a * K + a];
  }
  if (matrix_varies) std::fill(outer, outer + K * K, 0.0);

  double quadratic = 0;
  int64_t r = 0;  // mu's row for value row i
  for (int64_t i = 0; i < rows; ++i, r = r + 1 == mu_rows ? 0 : r + 1) {
    const double* xi = x + i * K;
    const double* m = mu + r * mu_width;
    double row_quadratic = 0;
    for (int64_t a = 0; a < K; ++a) {
      double v = xi[a] - m[a * mu_stride];
      for (int64_t k = 0; k < a; ++k) v -= L[a * K + k] * z[k];
      z[a] = v * inverse_diagonal[a];
      row_quadratic += z[a] * z[a];
    }
    quadratic += row_quadratic;
    if constexpr (kPointwise) s.values[op.out + i] = -0.5 * row_quadratic - (half_log_det + K * kHalfLog2Pi);
    if (!gradient) continue;
    for (int64_t a = K - 1; a >= 0; --a) {
      double v = z[a];
      for (int64_t k = a + 1; k < K; ++k) v -= L[k * K + a] * w[k];
      w[a] = v * inverse_diagonal[a];
    }
    if (x_varies) {
      for (int64_t a = 0; a < K; ++a) x_adjoint[i * K + a] -= w[a];
    }
    if (mu_varies) {
      for (int64_t a = 0; a < K; ++a) mu_adjoint[r * mu_width + a * mu_stride] += w[a];
    }
    if (matrix_varies) {
      const double* right = kCovariance ? w : z;
      for (int64_t a = 0; a < K; ++a) {
        for (int64_t b = 0; b <= a; ++b) outer[a * K + b] += w[a] * right[b];
      }
    }
  }
  if constexpr (kPointwise) return;
  s.lp += -0.5 * quadratic - static_cast<double>(rows) * (half_log_det + K * kHalfLog2Pi);
  if (!matrix_varies) return;

  const auto n = static_cast<double>(rows);
  if constexpr (kCovariance) {
    inverse_from_cholesky(L, K, work, inverse);
    for (int64_t a = 0; a < K; ++a) {
      for (int64_t b = 0; b <= a; ++b) {
        const double g = -0.5 * (n * inverse[a * K + b] - outer[a * K + b]);
        matrix_adjoint[a * K + b] += g;
        if (b != a) matrix_adjoint[b * K + a] += g;
      }
    }
  } else {
    for (int64_t a = 0; a < K; ++a) {
      for (int64_t b = 0; b < a; ++b) matrix_adjoint[a * K + b] += outer[a * K + b];
      matrix_adjoint[a * K + a] += outer[a * K + a] - n * inverse_diagonal[a];
    }
  }
}

// Operands as the sink's; writes each row mu + L z, z standard normal from the sweep's
// stream, to op.out. Sigma that is not positive definite gives NaN rows.
template <bool kCovariance>
void multi_normal_draw_kernel(const Instruction& op, Sweep& s) {
  const int64_t rows = op.dims[0], K = op.dims[1], mu_rows = op.dims[2], mu_stride = op.dims[3];
  const int64_t mu_width = mu_stride == 0 ? 1 : K;
  const double* mu = s.values + op.in[1];
  const double* L = s.values + op.in[2];
  double* z = s.values + op.in[3];
  double* out = s.values + op.out;
  if constexpr (kCovariance) {
    double* factor = z + 2 * K + K * K;
    if (!cholesky(L, K, factor)) {
      std::fill(out, out + rows * K, std::numeric_limits<double>::quiet_NaN());
      return;
    }
    L = factor;
  }
  std::normal_distribution<double> normal;
  int64_t r = 0;
  for (int64_t i = 0; i < rows; ++i, r = r + 1 == mu_rows ? 0 : r + 1) {
    for (int64_t a = 0; a < K; ++a) z[a] = normal(*s.random);
    for (int64_t a = 0; a < K; ++a) {
      double v = mu[r * mu_width + a * mu_stride];
      for (int64_t k = 0; k <= a; ++k) v += L[a * K + k] * z[k];  // the lower triangle alone
      out[i * K + a] = v;
    }
  }
}

enum class MultiNormalOp { sink, pointwise, draw };

void emit_multi_normal_op(ProgramBuilder& builder, const DensityTerm& term, MultiNormalOp kind, const Slot* out);

}  // namespace

void emit_multi_normal(ProgramBuilder& builder, const DensityTerm& term) {
  emit_multi_normal_op(builder, term, MultiNormalOp::sink, nullptr);
}

void emit_pointwise_multi_normal(ProgramBuilder& builder, const DensityTerm& term, const Slot& out) {
  emit_multi_normal_op(builder, term, MultiNormalOp::pointwise, &out);
}

void emit_multi_normal_draw(ProgramBuilder& builder, const DensityTerm& term, const Slot& out) {
  emit_multi_normal_op(builder, term, MultiNormalOp::draw, &out);
}

namespace {

void emit_multi_normal_op(ProgramBuilder& builder, const DensityTerm& term, MultiNormalOp kind, const Slot* out) {
  const Shape& shape = term.value.shape;
  const Slot& mu = term.arguments[0];
  const Slot& matrix = term.arguments[1];
  const char* matrix_name = term.parameterization == 0 ? "Sigma" : "scale_tril";
  if (shape.empty()) {
    throw Unsupported("the tape has no kernel for MultiNormal of a scalar value");
  }
  const int64_t K = shape.back();
  const Shape rows = leading_shape(shape, 1);
  if (matrix.shape.size() < 2 || matrix.shape.back() != K || matrix.size != K * K) {
    throw Unsupported(std::string("the tape has no kernel for MultiNormal with ") + matrix_name +
                      " of shape " + to_string(matrix.shape) + " and a value of shape " +
                      to_string(shape));
  }
  int64_t mu_stride = 1;
  int64_t mu_rows = 1;
  if (mu.shape.empty() || (mu.shape.back() == 1 && K != 1)) {
    mu_stride = 0;
  } else if (mu.shape.back() != K) {
    throw Unsupported("the tape has no kernel for MultiNormal with mu of shape " +
                      to_string(mu.shape) + " and a value of shape " + to_string(shape));
  }
  if (!mu.shape.empty()) mu_rows = row_period(mu, 1, rows, "MultiNormal's mu");

  const bool covariance = term.parameterization == 0;
  Kernel kernel = covariance ? multi_normal_kernel<true, false> : multi_normal_kernel<false, false>;
  if (kind == MultiNormalOp::pointwise) {
    kernel = covariance ? multi_normal_kernel<true, true> : multi_normal_kernel<false, true>;
  } else if (kind == MultiNormalOp::draw) {
    kernel = covariance ? multi_normal_draw_kernel<true> : multi_normal_draw_kernel<false>;
  }
  const char* names[] = {"MultiNormal", "pointwise_lpdf", "random_draw"};
  Instruction op = sink_instruction(kernel, names[static_cast<int>(kind)], term.value.size);
  if (out) {
    op.sink = false;
    op.out = out->offset;
  }
  set_operand(op, 0, term.value);
  set_operand(op, 1, mu);
  set_operand(op, 2, matrix);
  set_operand(op, 3, builder.varying({4 * K * K + 3 * K}));
  op.dims = {numel(rows), K, mu_rows, mu_stride};
  builder.append(op);
}

}  // namespace

}  // namespace variate::tape
