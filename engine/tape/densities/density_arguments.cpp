#include "engine/tape/densities/density_arguments.h"

#include <algorithm>

#include <ATen/ATen.h>

#include "engine/tape/program/unsupported.h"

namespace variate::tape {

std::vector<double> observed_values(const ProgramBuilder& builder, const Slot& value,
                                    const std::string& family) {
  if (value.varying) {
    throw Unsupported("the tape has no kernel for " + family +
                      " of a value that depends on parameters");
  }
  return builder.constant_values(value);
}

int64_t elementwise_stride(const Slot& argument, int64_t n, const std::string& what) {
  if (argument.size == 1) return 0;
  if (argument.size == n) return 1;
  throw Unsupported("the tape has no kernel for " + what + " of shape " +
                    to_string(argument.shape) + " against " + std::to_string(n) + " values");
}

std::vector<double> binomial_trials(const ProgramBuilder& builder, const Slot& trials, int64_t n) {
  if (trials.varying) throw Unsupported("the tape has no kernel for Binomial with varying N");
  const int64_t stride = elementwise_stride(trials, n, "Binomial's N");
  const std::vector<double> values = builder.constant_values(trials);
  std::vector<double> per_element(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) per_element[static_cast<size_t>(i)] = values[static_cast<size_t>(stride * i)];
  return per_element;
}

Shape leading_shape(const Shape& shape, int64_t count) {
  const auto keep = static_cast<int64_t>(shape.size()) - count;
  return Shape(shape.begin(), shape.begin() + std::max<int64_t>(keep, 0));
}

int64_t row_period(const Slot& argument, int64_t event_rank, const Shape& value_rows,
                   const std::string& what) {
  Shape leading = leading_shape(argument.shape, event_rank);
  leading.erase(leading.begin(),
                std::find_if(leading.begin(), leading.end(), [](int64_t d) { return d != 1; }));
  const bool suffix = leading.size() <= value_rows.size() &&
                      std::equal(leading.rbegin(), leading.rend(), value_rows.rbegin());
  if (!suffix) {
    throw Unsupported("the tape has no kernel for " + what + " of shape " +
                      to_string(argument.shape) + " against a value of " +
                      std::to_string(numel(value_rows)) + " rows " + to_string(value_rows));
  }
  return numel(leading);
}

at::Tensor constant_tensor(const ProgramBuilder& builder, const Slot& slot) {
  return at::tensor(builder.constant_values(slot), at::kDouble).reshape(slot.shape);
}

int64_t mixture_component_stride(const Slot& argument, int64_t C, const std::string& family) {
  if (argument.shape.empty() || (argument.shape.back() == 1 && C != 1)) return 0;
  if (argument.shape.back() == C) return 1;
  throw Unsupported("the tape has no kernel for Mixture of " + family + " with an argument of shape " +
                    to_string(argument.shape) + " for " + std::to_string(C) + " components");
}

Instruction sink_instruction(Kernel kernel, const char* name, int64_t n) {
  Instruction op;
  op.forward = kernel;
  op.sink = true;
  op.name = name;
  op.n = n;
  return op;
}

void set_operand(Instruction& op, int k, const Slot& slot, int64_t stride) {
  op.in[static_cast<size_t>(k)] = slot.offset;
  op.varying[static_cast<size_t>(k)] = slot.varying;
  op.stride[static_cast<size_t>(k)] = stride;
}

}  // namespace variate::tape
