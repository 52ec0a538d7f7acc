// The bijectors of vectors (engine/bijectors/ordered, positive_ordered, simplex), formula
// for formula, applied to each row along the last axis, with their log-Jacobians as sinks.
//
// Operands: in[0] y with n elements in rows of dims[0]; in[1] a scratch slot the forward
// fills for the backward and the sink.

#include <cmath>

#include <ATen/ATen.h>

#include "engine/tape/constrain/constrain_kernels.h"

namespace variate::tape {
namespace {

// x = cumsum([y_0, exp(y_1), ...]), or cumsum(exp(y)) when positive. The scratch holds
// dx_j / dy_j (exp(y_j), or 1 for an ordered vector's first entry).
template <bool kPositive>
void ordered_forward(const Instruction& op, Sweep& s) {
  const double* y = s.values + op.in[0];
  double* step = s.values + op.in[1];
  double* x = s.values + op.out;
  const int64_t k = op.dims[0];
  for (int64_t row = 0; row < op.n; row += k) {
    step[row] = kPositive ? std::exp(y[row]) : 1.0;
    double sum = kPositive ? step[row] : y[row];
    x[row] = sum;
    for (int64_t j = row + 1; j < row + k; ++j) {
      step[j] = std::exp(y[j]);
      sum += step[j];
      x[j] = sum;
    }
  }
}

// The adjoint of each step is a reversed cumulative sum of the output adjoints.
void ordered_backward(const Instruction& op, Sweep& s) {
  const double* step = s.values + op.in[1];
  const double* ax = s.adjoints + op.out;
  double* ay = s.adjoints + op.in[0];
  const int64_t k = op.dims[0];
  for (int64_t row = 0; row < op.n; row += k) {
    double later = 0;
    for (int64_t j = row + k; j-- > row;) {
      later += ax[j];
      ay[j] += later * step[j];
    }
  }
}

// log|det J| = the sum of the exponentiated entries: all of them when positive, all but
// each row's first otherwise.
template <bool kPositive>
void ordered_log_jacobian(const Instruction& op, Sweep& s) {
  const double* y = s.values + op.in[0];
  double* ay = s.adjoints + op.in[0];
  const int64_t k = op.dims[0];
  double total = 0;
  for (int64_t row = 0; row < op.n; row += k) {
    for (int64_t j = kPositive ? row : row + 1; j < row + k; ++j) {
      total += y[j];
      ay[j] += 1;
    }
  }
  s.lp += total;
}

// Stick-breaking in log space as Simplex::forward: with u_k = y_k - log(K - 1 - k) and
// z_k = sigmoid(u_k), x_k = exp(log_stick_k + log z_k) and the last x = exp(log_stick_K-1),
// where log_stick_k sums log(1 - z_j) for j < k. dims[0] = K - 1; in[2] the offsets
// log(K - 1 - k). The scratch holds, in four blocks of n, log z, log(1 - z) and their
// slopes in u.
struct SticksScratch {
  double* log_z;
  double* log1m_z;
  double* slope_log_z;
  double* slope_log1m_z;  // d log(1 - z) / du is minus this
};

SticksScratch sticks_scratch(const Instruction& op, const Sweep& s) {
  double* base = s.values + op.in[1];
  return {base, base + op.n, base + 2 * op.n, base + 3 * op.n};
}

void simplex_forward(const Instruction& op, Sweep& s) {
  const double* y = s.values + op.in[0];
  const double* offsets = s.values + op.in[2];
  double* x = s.values + op.out;
  const SticksScratch sticks = sticks_scratch(op, s);
  const int64_t m = op.dims[0];
  for (int64_t row = 0, out = 0; row < op.n; row += m, out += m + 1) {
    double log_stick = 0;
    for (int64_t k = 0; k < m; ++k) {
      const int64_t i = row + k;
      const LogSigmoids ls = log_sigmoids(y[i] - offsets[k]);
      sticks.log_z[i] = ls.at_x;
      sticks.log1m_z[i] = ls.at_minus_x;
      sticks.slope_log_z[i] = ls.slope_at_x;
      sticks.slope_log1m_z[i] = ls.slope_at_minus_x;
      x[out + k] = std::exp(log_stick + ls.at_x);
      log_stick += ls.at_minus_x;
    }
    x[out + m] = std::exp(log_stick);
  }
}

// With a_k = adjoint(x_k) x_k, the adjoint of log x_k: log z_k reaches x_k only, log(1 -
// z_k) every later x (the last one through the remainder).
void simplex_backward(const Instruction& op, Sweep& s) {
  const double* x = s.values + op.out;
  const double* ax = s.adjoints + op.out;
  double* ay = s.adjoints + op.in[0];
  const SticksScratch sticks = sticks_scratch(op, s);
  const int64_t m = op.dims[0];
  for (int64_t row = 0, out = 0; row < op.n; row += m, out += m + 1) {
    double later = ax[out + m] * x[out + m];
    for (int64_t k = m; k-- > 0;) {
      const int64_t i = row + k;
      const double a = ax[out + k] * x[out + k];
      ay[i] += a * sticks.slope_log_z[i] - later * sticks.slope_log1m_z[i];
      later += a;
    }
  }
}

// log|det J| = sum_k log_stick_k + log z_k + log(1 - z_k); log(1 - z_k) counts once for
// itself and once in each of the K - 2 - k later sticks.
void simplex_log_jacobian(const Instruction& op, Sweep& s) {
  double* ay = s.adjoints + op.in[0];
  const SticksScratch sticks = sticks_scratch(op, s);
  const int64_t m = op.dims[0];
  double total = 0;
  for (int64_t row = 0; row < op.n; row += m) {
    double log_stick = 0;
    for (int64_t k = 0; k < m; ++k) {
      const int64_t i = row + k;
      total += log_stick + sticks.log_z[i] + sticks.log1m_z[i];
      ay[i] += sticks.slope_log_z[i] - static_cast<double>(m - k) * sticks.slope_log1m_z[i];
      log_stick += sticks.log1m_z[i];
    }
  }
  s.lp += total;
}

Instruction row_op(const char* name, const Slot& x, const Slot& y, int64_t row_length) {
  Instruction op;
  op.name = name;
  op.out = x.offset;
  op.n = y.size;
  op.dims[0] = row_length;
  op.in[0] = y.offset;
  op.varying[0] = true;
  return op;
}

Slot emit_ordered_kind(ProgramBuilder& builder, const Slot& y, bool positive) {
  const Slot x = builder.varying(y.shape);
  Instruction op = row_op(positive ? "positive_ordered" : "ordered", x, y, y.shape.back());
  op.forward = positive ? ordered_forward<true> : ordered_forward<false>;
  op.backward = ordered_backward;
  op.in[1] = builder.varying(y.shape).offset;
  builder.append(op);
  builder.append(
      positive ? jacobian_sink(op, ordered_log_jacobian<true>, "positive_ordered_log_jacobian")
               : jacobian_sink(op, ordered_log_jacobian<false>, "ordered_log_jacobian"));
  return x;
}

}  // namespace

Slot emit_ordered(ProgramBuilder& builder, const Slot& y) {
  return emit_ordered_kind(builder, y, false);
}

Slot emit_positive_ordered(ProgramBuilder& builder, const Slot& y) {
  return emit_ordered_kind(builder, y, true);
}

Slot emit_simplex(ProgramBuilder& builder, const Slot& y, const Shape& constrained_shape) {
  const int64_t m = y.shape.back();
  // The offsets as Simplex computes them (LibTorch's log, so the same bits).
  const at::Tensor offsets = at::arange(m, 0, -1, at::kDouble).log().contiguous();
  const double* data = offsets.data_ptr<double>();

  const Slot x = builder.varying(constrained_shape);
  Instruction op = row_op("simplex", x, y, m);
  op.forward = simplex_forward;
  op.backward = simplex_backward;
  op.in[1] = builder.varying({4, y.size}).offset;
  op.in[2] = builder.constant({m}, std::vector<double>(data, data + m)).offset;
  builder.append(op);
  builder.append(jacobian_sink(op, simplex_log_jacobian, "simplex_log_jacobian"));
  return x;
}

}  // namespace variate::tape
