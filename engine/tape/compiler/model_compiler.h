#pragma once
/// Compiles a model bound to its data into a tape Program: parameters through their
/// transforms, data-only expressions folded to constants (with LibTorch, once), every
/// other expression as ops, every `~` statement as one log-density sink.

#include <string>
#include <vector>

#include "engine/model/compiled_model.h"
#include "engine/tape/program/program.h"

namespace variate::tape {

/// The log density of `model` on the unconstrained scale, as its target() computes it.
/// @throws Unsupported naming the first statement or expression without a kernel
/// ("'y': the tape has no kernel for Weibull").
Program compile_model(const model::CompiledModel& model);

/// What a draw records — each parameter on its own scale, then each derived quantity —
/// computed by one forward sweep of a program without densities: what
/// CompiledModel::draw_columns() computes on LibTorch, one tensor operation at a time.
struct DrawValuesProgram {
  struct Output {
    std::string name;
    Shape shape;
    int64_t offset = 0;  ///< in the arena, its values row-major
  };
  Program program;
  std::vector<Output> outputs;  ///< in CompiledModel::draw_quantities()' order
};

/// @throws Unsupported as compile_model.
DrawValuesProgram compile_draw_values(const model::CompiledModel& model);

/// What `--predict` records at one draw: for each observed variable, in the order the
/// model's statements run, a replicated draw (NAME_rep, drawn from Work::random, `shape`
/// values) and its log likelihood observation by observation (log_lik, `log_lik_shape`
/// values: one per element, or one per row of a multivariate family), row-major in the arena.
/// The program's input (its "parameters", dimension() values) is every parameter on its
/// own scale, row-major, one after the other in the layout's order.
struct PredictiveProgram {
  struct Observed {
    std::string name;
    Shape shape;
    Shape log_lik_shape;
    int64_t replicated = 0;  ///< arena offsets
    int64_t log_lik = 0;
  };
  Program program;
  std::vector<Observed> observed;
};

/// @throws Unsupported as compile_model, and for an observed variable whose family has no
/// pointwise log density or sampler here (a truncated one: a family the tape truncates).
PredictiveProgram compile_predictive(const model::CompiledModel& model);

}  // namespace variate::tape
