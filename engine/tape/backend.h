#pragma once
/// Which backend evaluates a model's density: the static tape (fast on the CPU for the
/// models people fit every day) or LibTorch (GPU, float32, batched chains, deep models,
/// models written with the C++ API). `auto` takes the tape whenever it can.

#include <optional>
#include <string>

#include "variate/model/compiled_model.h"
#include "variate/target/unconstrained_target.h"

namespace variate::tape {

enum class Backend { automatic, tape, torch };

/// "auto", "tape", "torch".
const char* backend_name(Backend backend);
/// nullopt for another name.
std::optional<Backend> parse_backend(const std::string& name);

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
