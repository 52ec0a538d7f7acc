// log_sum_exp over every element and log_sum_exp_rows over each row of a matrix, as
// at::logsumexp computes them: m + log(sum(exp(x - m))) with m the maximum (taken as 0
// when it is infinite, so that all -inf gives -inf rather than NaN), and LibTorch's
// backward, grad * exp(x - y), which needs no extra storage.

#include <cmath>

#include "engine/tape/ops/expression_ops.h"
#include "engine/tape/ops/partial_sums.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

double log_sum_exp_of(const double* x, int64_t n) {
  double m = x[0];
  for (int64_t i = 1; i < n; ++i) m = std::fmax(m, x[i]);
  if (std::isinf(m)) m = 0;
  return m + std::log(sum_of_terms(n, [x, m](int64_t i) { return std::exp(x[i] - m); }));
}

// dims = {rows, columns}: one value per row (rows = 1 for the whole of x).
void log_sum_exp_forward(const Instruction& op, Sweep& s) {
  const double* x = s.values + op.in[0];
  double* __restrict y = s.values + op.out;
  const int64_t columns = op.dims[1];
  for (int64_t r = 0; r < op.dims[0]; ++r) y[r] = log_sum_exp_of(x + r * columns, columns);
}

void log_sum_exp_backward(const Instruction& op, Sweep& s) {
  const double* x = s.values + op.in[0];
  const double* y = s.values + op.out;
  const double* g = s.adjoints + op.out;
  double* ax = s.adjoints + op.in[0];
  const int64_t columns = op.dims[1];
  for (int64_t r = 0; r < op.dims[0]; ++r) {
    for (int64_t j = 0; j < columns; ++j) ax[r * columns + j] += g[r] * std::exp(x[r * columns + j] - y[r]);
  }
}

Slot emit_rows(ProgramBuilder& builder, const Slot& x, int64_t rows, int64_t columns, const Shape& shape) {
  if (!x.varying) {
    const std::vector<double> v = builder.constant_values(x);
    std::vector<double> values;
    for (int64_t r = 0; r < rows; ++r) values.push_back(log_sum_exp_of(v.data() + r * columns, columns));
    return builder.constant(shape, std::move(values));
  }
  return builder.append_op("log_sum_exp", log_sum_exp_forward, log_sum_exp_backward, x, shape,
                           {rows, columns, 0, 0});
}

}  // namespace

Slot emit_log_sum_exp(ProgramBuilder& builder, const Slot& x) {
  if (x.shape.empty()) return x;
  if (x.size == 0) throw Unsupported("the tape has no kernel for log_sum_exp of no elements");
  return emit_rows(builder, x, 1, x.size, {});
}

Slot emit_log_sum_exp_rows(ProgramBuilder& builder, const Slot& x) {
  if (x.shape.size() != 2 || x.shape[1] == 0) {
    throw Unsupported("the tape has no kernel for log_sum_exp_rows of shape " + to_string(x.shape));
  }
  return emit_rows(builder, x, x.shape[0], x.shape[1], {x.shape[0]});
}

}  // namespace variate::tape
