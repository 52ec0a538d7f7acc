#pragma once
/// The static tape: a model's log density compiled once into a flat list of instructions
/// over one arena of doubles, evaluated by a forward and a reverse sweep with no tensors,
/// no allocation and no virtual calls (the design of CppAD's recorded tapes and of Stan
/// Math's operands-and-partials, without Stan's per-element nodes).
///
/// Arena layout, fixed when the program is built:
///   [0, dimension)          the unconstrained parameters (one copy in)
///   [dimension, varying)    values that depend on parameters (the only adjoints zeroed)
///   [varying, size)         data and constants, written once when a Work is made
///
/// An instruction is an op (forward writes `out` from `in`, backward adds the output's
/// adjoint into the operands' adjoints) or a sink (a log-density term: forward adds its
/// value to the sweep's lp and its partials straight into the operands' adjoints, since a
/// sink's output adjoint is always 1; it has no backward). The reverse sweep visits the
/// ops only.

#include <array>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/core/shape.h"

namespace variate::tape {

/// Marks the offsets of constant slots while a program is built (builder.h).
constexpr int64_t kConstantTag = int64_t{1} << 48;

/// The state of one evaluation, handed to every kernel.
struct Sweep {
  double* values = nullptr;
  double* adjoints = nullptr;
  /// Integer data: gather maps, index arrays, counts (Program::indices()).
  const int64_t* indices = nullptr;
  /// Sum of the sinks' values.
  double lp = 0;
  /// Set by a kernel that cannot evaluate at this point (a matrix that is not positive
  /// definite): the density is then -inf, as on the LibTorch path.
  bool failed = false;
  /// Set (with `failed`) by an argument check: an argument computed from the parameters is
  /// outside its domain here (densities/argument_checks.h).
  bool rejected = false;
  /// Where a predictive program's draws come from (densities/random_draws.h); null in a
  /// program without them.
  std::mt19937_64* random = nullptr;
};

struct Instruction;
using Kernel = void (*)(const Instruction&, Sweep&);

/// Operands by arena offset. What `n`, `dims`, `constants` and `index` mean is up to the
/// kernel; the conventions most kernels follow:
///   n         elements of the output (ops) or of the variable (sinks)
///   stride[k] 0 when operand k is one value broadcast over n, 1 when it has n values
///   varying[k] operand k depends on parameters (has an adjoint to add to)
struct Instruction {
  Kernel forward = nullptr;
  Kernel backward = nullptr;  // null for sinks
  bool sink = false;
  /// A log-Jacobian term: skipped when the density is wanted without the Jacobian.
  bool jacobian = false;
  int64_t out = -1;
  int64_t n = 0;
  std::array<int64_t, 6> in{{-1, -1, -1, -1, -1, -1}};
  std::array<int64_t, 6> stride{};
  std::array<bool, 6> varying{};
  std::array<int64_t, 4> dims{};
  std::array<double, 4> constants{};
  int64_t index = -1;  // offset into Program::indices()
  /// Immutable data a kernel reads besides the arena (a GLM's design matrix), owned by the
  /// Program (ProgramBuilder::keep).
  const void* aux = nullptr;
  /// What the instruction computes, for logs and tests: "normal_lpdf", "exp", "gather".
  const char* name = "";
};

/// Scratch memory of one evaluation thread: values and adjoints, laid out by a Program.
class Work {
 public:
  std::vector<double> values;
  std::vector<double> adjoints;
  /// Whether the last evaluation found an argument outside its domain.
  bool rejected = false;
  /// The random stream a predictive program draws from, set by its caller.
  std::mt19937_64* random = nullptr;
};

class Program {
 public:
  Program() = default;
  Program(int64_t dimension, int64_t varying_end, std::vector<double> initial_values,
          std::vector<Instruction> instructions, std::vector<int64_t> indices,
          std::vector<std::shared_ptr<const void>> owned = {});

  int64_t dimension() const { return dimension_; }
  int64_t arena_size() const { return static_cast<int64_t>(initial_.size()); }
  const std::vector<Instruction>& instructions() const { return instructions_; }
  const std::vector<int64_t>& indices() const { return indices_; }

  /// Scratch memory for one thread, with data and constants in place.
  Work make_work() const;

  /// log p at the unconstrained point q[dimension()], with its gradient written into
  /// gradient[dimension()] (may be null for the value only). Not finite when the density
  /// vanishes or cannot be evaluated there (work.rejected says whether because of an
  /// argument outside its domain); the gradient is then unspecified.
  double log_density(const double* q, double* gradient, Work& work, bool jacobian = true) const;

  /// A function's program (its dimension() inputs in q, no sinks): the forward sweep only.
  /// False where a kernel could not evaluate.
  bool evaluate(const double* q, Work& work) const;
  /// After evaluate(): d value / d q of the value at arena offset `output` (resolved),
  /// written into gradient[dimension()], by one reverse sweep from it.
  void gradient_of(int64_t output, Work& work, double* gradient) const;

  /// The same program without its argument checks (densities/argument_checks.h): what
  /// bench/argument_check_cost.cpp times them against.
  Program without_argument_checks() const;

  /// The arena offset of a slot's offset as the builder handed it out.
  int64_t resolve(int64_t slot_offset) const {
    return slot_offset >= kConstantTag ? slot_offset - kConstantTag + varying_end_ : slot_offset;
  }
  /// A slot's values after the last evaluation in `work` (for tests).
  const double* value_at(const Work& work, int64_t slot_offset) const {
    return work.values.data() + resolve(slot_offset);
  }

 private:
  int64_t dimension_ = 0;
  int64_t varying_end_ = 0;
  std::vector<double> initial_;
  std::vector<Instruction> instructions_;
  std::vector<int64_t> ops_;  // indices of the non-sink instructions with a backward, in order
  std::vector<int64_t> indices_;
  std::vector<std::shared_ptr<const void>> owned_;  // what instructions' aux point to
};

}  // namespace variate::tape
