#pragma once
/// A compiled model's target on the backend a run asks for (backend.h).

#include <string>

#include "engine/model/compiled_model.h"
#include "engine/tape/compiler/backend.h"
#include "engine/target/unconstrained_target.h"

namespace variate::tape {

struct SelectedTarget {
  UnconstrainedTarget target;
  /// Why `auto` fell back to LibTorch ("'y': the tape has no kernel for Weibull"); empty
  /// when the tape was taken or LibTorch was asked for.
  std::string fallback_reason;
};

/// `model`'s target on the chosen backend. `auto`: the tape when the model compiles to
/// one (float64, every op supported), else LibTorch with the reason.
/// @throws ArgumentError for `tape` when the model cannot run on it, with the reason.
SelectedTarget select_target(const model::CompiledModel& model, Backend backend);

}  // namespace variate::tape
