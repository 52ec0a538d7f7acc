// softmax and cumulative_sum of a vector, with LibTorch's backward formulas:
// softmax's grad_x = y * (g - sum(g * y)), cumulative_sum's grad_x[i] = sum_{j >= i} g[j].

#include <cmath>

#include "engine/tape/ops/expression_ops.h"
#include "engine/tape/ops/partial_sums.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

// exp(x - max) / sum, the maximum subtracted so that no term overflows (at::softmax).
void softmax_of(const double* x, double* __restrict y, int64_t n) {
  double m = x[0];
  for (int64_t i = 1; i < n; ++i) m = std::fmax(m, x[i]);
  for (int64_t i = 0; i < n; ++i) y[i] = std::exp(x[i] - m);
  const double total = sum_of(y, n);
  for (int64_t i = 0; i < n; ++i) y[i] /= total;
}

void softmax_forward(const Instruction& op, Sweep& s) {
  softmax_of(s.values + op.in[0], s.values + op.out, op.n);
}

void softmax_backward(const Instruction& op, Sweep& s) {
  const double* y = s.values + op.out;
  const double* g = s.adjoints + op.out;
  double* ax = s.adjoints + op.in[0];
  const double gy = dot_of(g, y, op.n);
  for (int64_t i = 0; i < op.n; ++i) ax[i] += y[i] * (g[i] - gy);
}

void cumulative_sum_of(const double* x, double* __restrict y, int64_t n) {
  double running = 0;
  for (int64_t i = 0; i < n; ++i) y[i] = running += x[i];
}

void cumulative_sum_forward(const Instruction& op, Sweep& s) {
  cumulative_sum_of(s.values + op.in[0], s.values + op.out, op.n);
}

void cumulative_sum_backward(const Instruction& op, Sweep& s) {
  const double* g = s.adjoints + op.out;
  double* ax = s.adjoints + op.in[0];
  double running = 0;
  for (int64_t i = op.n; i-- > 0;) ax[i] += running += g[i];
}

Slot emit_vector_function(ProgramBuilder& builder, const char* name, Kernel forward, Kernel backward,
                          void (*value)(const double*, double*, int64_t), const Slot& x) {
  if (x.shape.size() != 1 || x.size == 0) {
    throw Unsupported(std::string("the tape has no kernel for ") + name + " of shape " + to_string(x.shape));
  }
  if (!x.varying) {
    const std::vector<double> v = builder.constant_values(x);
    std::vector<double> values(v.size());
    value(v.data(), values.data(), x.size);
    return builder.constant(x.shape, std::move(values));
  }
  return builder.append_op(name, forward, backward, x, x.shape);
}

}  // namespace

Slot emit_softmax(ProgramBuilder& builder, const Slot& x) {
  return emit_vector_function(builder, "softmax", softmax_forward, softmax_backward, softmax_of, x);
}

Slot emit_cumulative_sum(ProgramBuilder& builder, const Slot& x) {
  return emit_vector_function(builder, "cumulative_sum", cumulative_sum_forward, cumulative_sum_backward,
                              cumulative_sum_of, x);
}

}  // namespace variate::tape
