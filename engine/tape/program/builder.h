#pragma once
/// Builds a Program: hands out arena slots (varying values, data, constants) and collects
/// instructions in evaluation order.
///
///   ProgramBuilder b(dimension);
///   const Slot x = b.parameters();                  // the unconstrained vector
///   const Slot y = b.varying({3});                  // an intermediate
///   b.append(instruction);                            // forward order
///   Program program = std::move(b).finish();

#include <string>
#include <vector>

#include "engine/core/shape.h"
#include "engine/tape/program/program.h"

namespace variate::tape {

/// A value in the arena: `size` doubles from `offset`, row-major in `shape`.
struct Slot {
  int64_t offset = -1;
  int64_t size = 0;
  Shape shape;
  /// Depends on parameters: has an adjoint that gradients flow through.
  bool varying = false;
};

class ProgramBuilder {
 public:
  explicit ProgramBuilder(int64_t dimension);

  /// The unconstrained parameter vector, [dimension].
  Slot parameters() const;
  /// A part of it: `count` elements from `offset`, viewed as `shape`.
  Slot parameters(int64_t offset, const Shape& shape) const;
  /// A new value that depends on parameters.
  Slot varying(const Shape& shape);
  /// Data or a constant: written once per Work, never touched by the reverse sweep.
  Slot constant(const Shape& shape, std::vector<double> values);
  Slot scalar(double value);
  /// A constant slot's values (constants are folded while building: a gather of data,
  /// the arithmetic of two constants).
  std::vector<double> constant_values(const Slot& slot) const;
  /// Stores integers (gather maps, counts) and returns their offset in Program::indices().
  int64_t indices(const std::vector<int64_t>& values);

  void append(const Instruction& instruction);
  /// Appends the common op of one operand x: a new varying output of `shape`, n = x's
  /// size, no backward when x is constant. Returns the output.
  Slot append_op(const char* name, Kernel forward, Kernel backward, const Slot& x, const Shape& shape,
                 const std::array<int64_t, 4>& dims = {});
  /// Keeps `data` alive as long as the program: what an instruction's aux points to.
  const void* keep(std::shared_ptr<const void> data);

  Program finish() &&;

 private:
  int64_t dimension_;
  int64_t varying_end_;
  // Constants are placed after the varying region, whose size is known only at finish():
  // until then their offsets carry kConstantTag, which finish() resolves in every
  // instruction (Program::resolve does it for slots).
  std::vector<double> constants_;
  std::vector<Instruction> instructions_;
  std::vector<int64_t> indices_;
  std::vector<std::shared_ptr<const void>> owned_;
};

}  // namespace variate::tape
