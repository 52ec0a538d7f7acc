#pragma once
/// Why a model has no point with a finite density, when it is an argument of a
/// distribution outside its domain (a negative sd in the data, say): samplers evaluate with
/// argument validation off, so a failed initialization evaluates once more with it on.

#include <optional>
#include <string>

#include <ATen/core/Tensor.h>

#include "engine/model/compiled_model.h"
#include "engine/model/model_error.h"

namespace variate::model {

/// The first argument outside its domain when `model` is evaluated at the unconstrained
/// point `unconstrained` ([d]) with validation on, as the ModelError located at its
/// distribution's call ("Normal: argument 'sigma' must be positive, got -1 (at index 3)");
/// nullopt when every argument there is valid.
std::optional<ModelError> find_invalid_argument(const CompiledModel& model, const at::Tensor& unconstrained);

/// The same at the points a failed initialization tries first: the unconstrained zero
/// point, then a few seeded uniform(-2, 2) points (an argument may be invalid only at some).
std::optional<ModelError> find_invalid_argument(const CompiledModel& model);

/// That argument as a compiler's diagnostic of `source` ("model.vmod:11:5: error: Normal:
/// argument 'sigma' must be positive, got -1 (at index 3)", the line and a caret), or ""
/// when every argument is valid.
std::string report_invalid_argument(const CompiledModel& model, const Source& source);

}  // namespace variate::model
