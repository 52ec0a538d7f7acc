#pragma once
/// A replicated draw of an observed variable, `NAME_rep`: each element drawn from its
/// family at its arguments, from the sweep's random stream (Sweep::random), element after
/// element in the value's row-major order. An op of a predictive program
/// (model_compiler.h); no gradient. The draws follow the family's definition (the one its
/// log density has), not LibTorch's sampling algorithms, so they differ from the LibTorch
/// path's draws for the same seed while having the same distribution.

#include <optional>

#include "engine/tape/densities/log_density_ops.h"

namespace variate::tape {

/// Writes term.value.size draws into `out` (term.value gives only the size).
/// @throws Unsupported for a family without a sampler here, naming it.
void emit_random_draw(ProgramBuilder& builder, const DensityTerm& term, const Slot& out);

/// The draws of `term` truncated to [lo, hi] (either may be missing), by rejection from its
/// family as distributions::Truncated samples: at most kTruncationTries draws per element,
/// then NaN (an interval with almost no mass, where LibTorch's sampler refuses).
/// @throws Unsupported as emit_random_draw.
void emit_truncated_draw(ProgramBuilder& builder, const DensityTerm& term, const std::optional<Slot>& lo,
                         const std::optional<Slot>& hi, const Slot& out);

/// How many draws a truncated element may take before it is NaN.
constexpr int64_t kTruncationTries = 100000;

}  // namespace variate::tape
