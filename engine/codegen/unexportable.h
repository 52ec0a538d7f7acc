#pragma once
/// What `variate export` cannot write in C++ yet: recurrences, `target +=` terms,
/// truncations, vector literals, comparisons, conditionals and the functions added with
/// them. A model that uses one is refused where it first does, not exported wrongly.

#include "engine/model/checker.h"

namespace variate::codegen {

/// @throws model::ModelError at the first construct the export has no C++ for.
void reject_unexportable(const model::CheckedModel& model);

}  // namespace variate::codegen
