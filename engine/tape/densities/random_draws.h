#pragma once
/// A replicated draw of an observed variable, `NAME_rep`: each element drawn from its
/// family at its arguments, from the sweep's random stream (Sweep::random), element after
/// element in the value's row-major order. An op of a predictive program
/// (model_compiler.h); no gradient. The draws follow the family's definition (the one its
/// log density has), not LibTorch's sampling algorithms, so they differ from the LibTorch
/// path's draws for the same seed while having the same distribution.

#include "engine/tape/densities/log_density_ops.h"

namespace variate::tape {

/// Writes term.value.size draws into `out` (term.value gives only the size).
/// @throws Unsupported for a family without a sampler here, naming it.
void emit_random_draw(ProgramBuilder& builder, const DensityTerm& term, const Slot& out);

}  // namespace variate::tape
