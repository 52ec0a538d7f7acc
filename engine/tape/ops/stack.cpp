#include "engine/tape/ops/stack.h"

#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

void copy_forward(const Instruction& op, Sweep& s) {
  const double* x = s.values + op.in[0];
  double* __restrict y = s.values + op.out;
  for (int64_t i = 0; i < op.n; ++i) y[i] = x[i];
}

void copy_backward(const Instruction& op, Sweep& s) {
  const double* g = s.adjoints + op.out;
  double* ax = s.adjoints + op.in[0];
  for (int64_t i = 0; i < op.n; ++i) ax[i] += g[i];
}

}  // namespace

Slot emit_stack(ProgramBuilder& builder, const std::vector<Slot>& items) {
  if (items.empty()) throw Unsupported("the tape cannot stack no items");
  const Shape& item_shape = items.front().shape;
  bool varying = false;
  for (const Slot& item : items) {
    if (item.shape != item_shape) {
      throw Unsupported("the tape stacks items of one shape, got " + to_string(item_shape) + " and " +
                        to_string(item.shape));
    }
    varying = varying || item.varying;
  }
  Shape shape{static_cast<int64_t>(items.size())};
  shape.insert(shape.end(), item_shape.begin(), item_shape.end());
  if (!varying) {
    std::vector<double> values;
    for (const Slot& item : items) {
      const std::vector<double> v = builder.constant_values(item);
      values.insert(values.end(), v.begin(), v.end());
    }
    return builder.constant(shape, std::move(values));
  }
  const Slot out = builder.varying(shape);
  for (size_t k = 0; k < items.size(); ++k) {
    Instruction op;
    op.name = "copy";
    op.forward = copy_forward;
    op.backward = items[k].varying ? copy_backward : nullptr;
    op.out = out.offset + static_cast<int64_t>(k) * items[k].size;
    op.n = items[k].size;
    op.in[0] = items[k].offset;
    op.varying[0] = items[k].varying;
    builder.append(op);
  }
  return out;
}

}  // namespace variate::tape
