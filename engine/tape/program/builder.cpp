#include "engine/tape/program/builder.h"

#include "engine/core/argument_error.h"

namespace variate::tape {

ProgramBuilder::ProgramBuilder(int64_t dimension) : dimension_(dimension), varying_end_(dimension) {}

Slot ProgramBuilder::parameters() const { return Slot{0, dimension_, {dimension_}, true}; }

Slot ProgramBuilder::parameters(int64_t offset, const Shape& shape) const {
  return Slot{offset, numel(shape), shape, true};
}

Slot ProgramBuilder::varying(const Shape& shape) {
  Slot slot{varying_end_, numel(shape), shape, true};
  varying_end_ += slot.size;
  return slot;
}

Slot ProgramBuilder::constant(const Shape& shape, std::vector<double> values) {
  if (static_cast<int64_t>(values.size()) != numel(shape)) {
    throw ArgumentError("tape constant: " + std::to_string(values.size()) + " values for shape " +
                        to_string(shape));
  }
  Slot slot{kConstantTag + static_cast<int64_t>(constants_.size()), numel(shape), shape, false};
  constants_.insert(constants_.end(), values.begin(), values.end());
  return slot;
}

Slot ProgramBuilder::scalar(double value) { return constant({}, {value}); }

std::vector<double> ProgramBuilder::constant_values(const Slot& slot) const {
  if (slot.varying) throw ArgumentError("tape: constant_values of a varying slot");
  const auto begin = constants_.begin() + (slot.offset - kConstantTag);
  return std::vector<double>(begin, begin + slot.size);
}

int64_t ProgramBuilder::indices(const std::vector<int64_t>& values) {
  const auto offset = static_cast<int64_t>(indices_.size());
  indices_.insert(indices_.end(), values.begin(), values.end());
  return offset;
}

void ProgramBuilder::append(const Instruction& instruction) { instructions_.push_back(instruction); }

Slot ProgramBuilder::append_op(const char* name, Kernel forward, Kernel backward, const Slot& x,
                               const Shape& shape, const std::array<int64_t, 4>& dims) {
  const Slot out = varying(shape);
  Instruction op;
  op.name = name;
  op.forward = forward;
  op.backward = x.varying ? backward : nullptr;
  op.out = out.offset;
  op.n = x.size;
  op.in[0] = x.offset;
  op.varying[0] = x.varying;
  op.dims = dims;
  append(op);
  return out;
}

const void* ProgramBuilder::keep(std::shared_ptr<const void> data) {
  owned_.push_back(std::move(data));
  return owned_.back().get();
}

Program ProgramBuilder::finish() && {
  const int64_t base = varying_end_;
  const auto resolve = [base](int64_t& offset) {
    if (offset >= kConstantTag) offset = offset - kConstantTag + base;
  };
  for (Instruction& instruction : instructions_) {
    resolve(instruction.out);
    for (int64_t& in : instruction.in) resolve(in);
  }
  std::vector<double> initial(static_cast<size_t>(base), 0.0);
  initial.insert(initial.end(), constants_.begin(), constants_.end());
  return Program(dimension_, base, std::move(initial), std::move(instructions_), std::move(indices_),
                 std::move(owned_));
}

}  // namespace variate::tape
