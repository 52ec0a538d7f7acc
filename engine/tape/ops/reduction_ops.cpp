// sum, mean, dot and colmeans, as model/functions.cpp computes them: a mean is the sum
// divided by the count (at::mean on the CPU), whose backward hands every element
// grad / count. Sums run in four partial sums.

#include "engine/tape/ops/expression_ops.h"
#include "engine/tape/ops/partial_sums.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

void sum_forward(const Instruction& op, Sweep& s) {
  s.values[op.out] = sum_of(s.values + op.in[0], op.n);
}

void sum_backward(const Instruction& op, Sweep& s) {
  const double g = s.adjoints[op.out];
  double* ax = s.adjoints + op.in[0];
  for (int64_t i = 0; i < op.n; ++i) ax[i] += g;
}

void mean_forward(const Instruction& op, Sweep& s) {
  s.values[op.out] = sum_of(s.values + op.in[0], op.n) / static_cast<double>(op.n);
}

void mean_backward(const Instruction& op, Sweep& s) {
  const double g = s.adjoints[op.out] / static_cast<double>(op.n);
  double* ax = s.adjoints + op.in[0];
  for (int64_t i = 0; i < op.n; ++i) ax[i] += g;
}

// dims = {m, n}: y[j] = (sum_i X[i, j]) / m, rows added in order.
void colmeans_forward(const Instruction& op, Sweep& s) {
  const double* x = s.values + op.in[0];
  double* __restrict y = s.values + op.out;
  const int64_t m = op.dims[0];
  const int64_t n = op.dims[1];
  for (int64_t j = 0; j < n; ++j) y[j] = 0;
  for (int64_t i = 0; i < m; ++i) {
    const double* row = x + i * n;
    for (int64_t j = 0; j < n; ++j) y[j] += row[j];
  }
  const double count = static_cast<double>(m);
  for (int64_t j = 0; j < n; ++j) y[j] /= count;
}

void colmeans_backward(const Instruction& op, Sweep& s) {
  const double* g = s.adjoints + op.out;
  double* ax = s.adjoints + op.in[0];
  const int64_t m = op.dims[0];
  const int64_t n = op.dims[1];
  const double count = static_cast<double>(m);
  for (int64_t i = 0; i < m; ++i) {
    double* row = ax + i * n;
    for (int64_t j = 0; j < n; ++j) row[j] += g[j] / count;
  }
}

// An op from x to a new slot of `shape`; no backward when x is constant.
Slot emit_reduction(ProgramBuilder& builder, const char* name, Kernel forward, Kernel backward,
                    const Slot& x, const Shape& shape) {
  const std::array<int64_t, 4> dims =
      x.shape.size() == 2 ? std::array<int64_t, 4>{x.shape[0], x.shape[1], 0, 0} : std::array<int64_t, 4>{};
  return builder.append_op(name, forward, backward, x, shape, dims);
}

}  // namespace

Slot emit_sum(ProgramBuilder& builder, const Slot& x) {
  if (x.shape.empty()) return x;
  return emit_reduction(builder, "sum", sum_forward, sum_backward, x, {});
}

Slot emit_mean(ProgramBuilder& builder, const Slot& x) {
  if (x.shape.empty()) return x;
  return emit_reduction(builder, "mean", mean_forward, mean_backward, x, {});
}

Slot emit_dot(ProgramBuilder& builder, const Slot& a, const Slot& b) {
  if (a.shape.size() != 1 || b.shape.size() != 1 || a.size != b.size) {
    throw Unsupported("the tape has no kernel for dot of " + to_string(a.shape) + " and " +
                      to_string(b.shape));
  }
  return emit_matmul(builder, a, b);
}

Slot emit_colmeans(ProgramBuilder& builder, const Slot& x) {
  if (x.shape.size() != 2) {
    throw Unsupported("the tape has no kernel for colmeans of shape " + to_string(x.shape));
  }
  return emit_reduction(builder, "colmeans", colmeans_forward, colmeans_backward, x, {x.shape[1]});
}

}  // namespace variate::tape
