// `c ? a : b` elementwise, as at::where(c != 0, a, b): the three broadcast to one shape,
// the output's adjoint passed to the branch picked at each element and none to the
// condition (whose value only selects).

#include "engine/tape/ops/expression_ops.h"
#include "engine/tape/ops/gather.h"

namespace variate::tape {
namespace {

// in = {c, a, b}, each read at i * stride (0 for one value broadcast over n).
void conditional_forward(const Instruction& op, Sweep& s) {
  const double* c = s.values + op.in[0];
  const double* a = s.values + op.in[1];
  const double* b = s.values + op.in[2];
  double* __restrict y = s.values + op.out;
  for (int64_t i = 0; i < op.n; ++i) {
    y[i] = c[i * op.stride[0]] != 0 ? a[i * op.stride[1]] : b[i * op.stride[2]];
  }
}

void conditional_backward(const Instruction& op, Sweep& s) {
  const double* c = s.values + op.in[0];
  const double* g = s.adjoints + op.out;
  double* aa = s.adjoints + op.in[1];
  double* ab = s.adjoints + op.in[2];
  for (int64_t i = 0; i < op.n; ++i) {
    if (c[i * op.stride[0]] != 0) {
      if (op.varying[1]) aa[i * op.stride[1]] += g[i];
    } else if (op.varying[2]) {
      ab[i * op.stride[2]] += g[i];
    }
  }
}

}  // namespace

Slot emit_conditional(ProgramBuilder& builder, const Slot& condition, const Slot& if_true,
                      const Slot& if_false) {
  const Shape shape = broadcast_shapes(broadcast_shapes(condition.shape, if_true.shape), if_false.shape);
  const int64_t n = numel(shape);
  // One value is read at stride 0; any other broadcast is a gather to the result's shape.
  const auto operand = [&](const Slot& x) { return x.size == 1 || x.size == n ? x : broadcast_to(builder, x, shape); };
  const Slot c = operand(condition);
  const Slot a = operand(if_true);
  const Slot b = operand(if_false);
  const Slot out = builder.varying(shape);
  Instruction op;
  op.name = "conditional";
  op.forward = conditional_forward;
  op.backward = a.varying || b.varying ? conditional_backward : nullptr;
  op.out = out.offset;
  op.n = n;
  const Slot* operands[] = {&c, &a, &b};
  for (size_t k = 0; k < 3; ++k) {
    op.in[k] = operands[k]->offset;
    op.stride[k] = operands[k]->size == n ? 1 : 0;
    op.varying[k] = operands[k]->varying;
  }
  builder.append(op);
  return out;
}

}  // namespace variate::tape
