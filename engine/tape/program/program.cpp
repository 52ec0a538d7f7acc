#include "engine/tape/program/program.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace variate::tape {

Program::Program(int64_t dimension, int64_t varying_end, std::vector<double> initial_values,
                 std::vector<Instruction> instructions, std::vector<int64_t> indices,
                 std::vector<std::shared_ptr<const void>> owned)
    : dimension_(dimension), varying_end_(varying_end), initial_(std::move(initial_values)),
      instructions_(std::move(instructions)), indices_(std::move(indices)), owned_(std::move(owned)) {
  for (size_t i = 0; i < instructions_.size(); ++i) {
    if (!instructions_[i].sink && instructions_[i].backward) ops_.push_back(static_cast<int64_t>(i));
  }
}

Program Program::without_argument_checks() const {
  std::vector<Instruction> kept;
  for (const Instruction& instruction : instructions_) {
    if (std::string(instruction.name).rfind("check_", 0) != 0) kept.push_back(instruction);
  }
  return Program(dimension_, varying_end_, initial_, std::move(kept), indices_, owned_);
}

Work Program::make_work() const {
  Work work;
  work.values = initial_;
  work.adjoints.assign(initial_.size(), 0.0);
  return work;
}

double Program::log_density(const double* q, double* gradient, Work& work, bool jacobian) const {
  double* values = work.values.data();
  double* adjoints = work.adjoints.data();
  std::copy(q, q + dimension_, values);
  // Adjoints of data and constants are written by kernels that do not know their operand
  // is constant, and never read: only the varying region needs zeroing.
  std::fill(adjoints, adjoints + varying_end_, 0.0);
  Sweep sweep{values, adjoints, indices_.data(), 0.0, false, false, work.random};
  for (const Instruction& instruction : instructions_) {
    if (instruction.jacobian && !jacobian) continue;
    instruction.forward(instruction, sweep);
  }
  work.rejected = sweep.rejected;
  if (sweep.failed || std::isnan(sweep.lp)) return -std::numeric_limits<double>::infinity();
  if (!gradient) return sweep.lp;
  for (auto it = ops_.rbegin(); it != ops_.rend(); ++it) {
    const Instruction& instruction = instructions_[static_cast<size_t>(*it)];
    instruction.backward(instruction, sweep);
  }
  std::copy(adjoints, adjoints + dimension_, gradient);
  return sweep.lp;
}

bool Program::evaluate(const double* q, Work& work) const {
  std::copy(q, q + dimension_, work.values.data());
  Sweep sweep{work.values.data(), work.adjoints.data(), indices_.data(), 0.0, false, false, work.random};
  for (const Instruction& instruction : instructions_) instruction.forward(instruction, sweep);
  work.rejected = sweep.rejected;
  return !sweep.failed;
}

void Program::gradient_of(int64_t output, Work& work, double* gradient) const {
  double* adjoints = work.adjoints.data();
  std::fill(adjoints, adjoints + varying_end_, 0.0);
  adjoints[output] = 1.0;
  Sweep sweep{work.values.data(), adjoints, indices_.data(), 0.0, false, false, work.random};
  for (auto it = ops_.rbegin(); it != ops_.rend(); ++it) {
    const Instruction& instruction = instructions_[static_cast<size_t>(*it)];
    instruction.backward(instruction, sweep);
  }
  std::copy(adjoints, adjoints + dimension_, gradient);
}

}  // namespace variate::tape
