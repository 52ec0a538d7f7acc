// The matrix helpers of model/functions.cpp: gp_exp_quad_cov, lags, eye and transpose.

#include <cmath>

#include "engine/tape/ops/expression_ops.h"
#include "engine/tape/ops/gather.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

// gp_exp_quad_cov as functions.cpp writes it:
//   h[i, j] = -0.5 * (x[i] - x[j])^2,  E = exp(h / rho^2),  K = alpha^2 * E.
// The kernels' in = {x (or, for data x, the constant h), alpha, rho, E (kept for the
// backward)}; dims = {n}.

// h[i, j], from x or read from the precomputed h.
template <bool XVaries>
double half_negative_square(const double* x_or_h, int64_t n, int64_t i, int64_t j) {
  if constexpr (XVaries) {
    const double d = x_or_h[i] - x_or_h[j];
    return -0.5 * (d * d);
  } else {
    return x_or_h[i * n + j];
  }
}

template <bool XVaries>
void gp_forward(const Instruction& op, Sweep& s) {
  const double* x = s.values + op.in[0];
  const double alpha = s.values[op.in[1]];
  const double rho = s.values[op.in[2]];
  double* __restrict e = s.values + op.in[3];
  double* __restrict k = s.values + op.out;
  const int64_t n = op.dims[0];
  const double alpha2 = alpha * alpha;
  const double rho2 = rho * rho;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      const double eij = std::exp(half_negative_square<XVaries>(x, n, i, j) / rho2);
      e[i * n + j] = eij;
      k[i * n + j] = alpha2 * eij;
    }
  }
}

// LibTorch's chain, link by link: with u = h / rho^2 and gu = (G alpha^2) E,
//   alpha: sum(G E) * (2 alpha),  rho: sum(-gu (u / rho^2)) * (2 rho),
//   x: d = x[i] - x[j] gets ((gu / rho^2) * -0.5) * (2 d), added to x[i], taken from x[j].
template <bool XVaries>
void gp_backward(const Instruction& op, Sweep& s) {
  const double* x = s.values + op.in[0];
  const double alpha = s.values[op.in[1]];
  const double rho = s.values[op.in[2]];
  const double* e = s.values + op.in[3];
  const double* g = s.adjoints + op.out;
  const int64_t n = op.dims[0];
  const double alpha2 = alpha * alpha;
  const double rho2 = rho * rho;
  double sum_alpha = 0;
  double sum_rho = 0;
  for (int64_t i = 0; i < n; ++i) {
    double ax_i = 0;
    for (int64_t j = 0; j < n; ++j) {
      const int64_t ij = i * n + j;
      const double gu = (g[ij] * alpha2) * e[ij];
      const double h = half_negative_square<XVaries>(x, n, i, j);
      sum_alpha += g[ij] * e[ij];
      sum_rho += -gu * ((h / rho2) / rho2);
      if constexpr (XVaries) {
        const double gd = ((gu / rho2) * -0.5) * (2 * (x[i] - x[j]));
        ax_i += gd;
        s.adjoints[op.in[0] + j] -= gd;
      }
    }
    if constexpr (XVaries) s.adjoints[op.in[0] + i] += ax_i;
  }
  if (op.varying[1]) s.adjoints[op.in[1]] += sum_alpha * (2 * alpha);
  if (op.varying[2]) s.adjoints[op.in[2]] += sum_rho * (2 * rho);
}

bool is_scalar(const Slot& slot) { return slot.size == 1 && slot.shape.size() <= 1; }

// A constant integer argument (lags' K, eye's n).
int64_t constant_integer(const ProgramBuilder& builder, const Slot& slot, const char* function) {
  if (slot.varying || slot.size != 1) {
    throw Unsupported(std::string("the tape has no kernel for ") + function +
                      " with a size that is not data");
  }
  const double value = builder.constant_values(slot)[0];
  if (value != std::floor(value)) {
    throw Unsupported(std::string("the tape has no kernel for ") + function +
                      " with a size that is not an integer");
  }
  return static_cast<int64_t>(value);
}

}  // namespace

Slot emit_gp_exp_quad_cov(ProgramBuilder& builder, const Slot& x, const Slot& alpha,
                          const Slot& rho) {
  if (x.shape.size() != 1 || !is_scalar(alpha) || !is_scalar(rho)) {
    throw Unsupported("the tape has no kernel for gp_exp_quad_cov of shapes " + to_string(x.shape) +
                      ", " + to_string(alpha.shape) + ", " + to_string(rho.shape));
  }
  const int64_t n = x.size;
  Instruction op;
  op.name = "gp_exp_quad_cov";
  op.dims = {n, 0, 0, 0};
  op.varying = {x.varying, alpha.varying, rho.varying, false, false, false};
  if (x.varying) {
    op.in[0] = x.offset;
    op.forward = gp_forward<true>;
    op.backward = gp_backward<true>;
  } else {
    // Data inputs: their half negative squared distances once, when the tape is built.
    const std::vector<double> xs = builder.constant_values(x);
    std::vector<double> h(static_cast<size_t>(n * n));
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        h[static_cast<size_t>(i * n + j)] = half_negative_square<true>(xs.data(), n, i, j);
      }
    }
    op.in[0] = builder.constant({n, n}, std::move(h)).offset;
    op.forward = gp_forward<false>;
    op.backward = alpha.varying || rho.varying ? gp_backward<false> : nullptr;
  }
  op.in[1] = alpha.offset;
  op.in[2] = rho.offset;
  op.in[3] = builder.varying({n, n}).offset;
  const Slot out = builder.varying({n, n});
  op.out = out.offset;
  op.n = out.size;
  builder.append(op);
  return out;
}

Slot emit_lags(ProgramBuilder& builder, const Slot& y, const Slot& k) {
  const int64_t lags = constant_integer(builder, k, "lags");
  const int64_t t = y.shape.size() == 1 ? y.size : 0;
  if (y.shape.size() != 1 || lags < 1 || lags >= t) {
    throw Unsupported("the tape has no kernel for lags(y, " + std::to_string(lags) + ") of shape " +
                      to_string(y.shape));
  }
  // Row r (time K + r) holds y[K + r - 1], ..., y[r].
  const int64_t rows = t - lags;
  std::vector<int64_t> map;
  map.reserve(static_cast<size_t>(rows * lags));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t lag = 1; lag <= lags; ++lag) map.push_back(lags - lag + r);
  }
  return emit_gather(builder, y, map, {rows, lags});
}

Slot emit_eye(ProgramBuilder& builder, const Slot& size) {
  const int64_t n = constant_integer(builder, size, "eye");
  if (n < 1) throw Unsupported("the tape has no kernel for eye(" + std::to_string(n) + ")");
  std::vector<double> identity(static_cast<size_t>(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i) identity[static_cast<size_t>(i * n + i)] = 1.0;
  return builder.constant({n, n}, std::move(identity));
}

Slot emit_transpose(ProgramBuilder& builder, const Slot& x) {
  if (x.shape.size() != 2) {
    throw Unsupported("the tape has no kernel for transpose of shape " + to_string(x.shape));
  }
  const int64_t rows = x.shape[0];
  const int64_t columns = x.shape[1];
  std::vector<int64_t> map;
  map.reserve(static_cast<size_t>(x.size));
  for (int64_t j = 0; j < columns; ++j) {
    for (int64_t i = 0; i < rows; ++i) map.push_back(i * columns + j);
  }
  return emit_gather(builder, x, map, {columns, rows});
}

}  // namespace variate::tape
