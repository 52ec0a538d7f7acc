#pragma once
/// A model's draw columns (the parameters on their own scale, then the derived quantities)
/// computed by the tape's forward sweep, without a tensor: the same values
/// CompiledModel::draw_columns() computes on LibTorch, at a fraction of the cost per draw.

#include "engine/model/compiled_model.h"
#include "engine/target/draw_columns.h"

namespace variate::tape {

/// @throws Unsupported when the tape cannot compute them (the caller keeps LibTorch's).
DrawColumns tape_draw_columns(const model::CompiledModel& model);

}  // namespace variate::tape
