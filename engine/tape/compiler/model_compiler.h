#pragma once
/// Compiles a model bound to its data into a tape Program: parameters through their
/// transforms, data-only expressions folded to constants (with LibTorch, once), every
/// other expression as ops, every `~` statement as one log-density sink.

#include "engine/model/compiled_model.h"
#include "engine/tape/program/program.h"

namespace variate::tape {

/// The log density of `model` on the unconstrained scale, as its target() computes it.
/// @throws Unsupported naming the first statement or expression without a kernel
/// ("'y': the tape has no kernel for Weibull").
Program compile_model(const model::CompiledModel& model);

}  // namespace variate::tape
