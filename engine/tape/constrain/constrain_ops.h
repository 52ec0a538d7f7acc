#pragma once
/// Bijectors as ops: the constrained value of a parameter from its unconstrained slice,
/// and the log|det J| of the transform as a sink marked `jacobian` (skipped when the
/// density is wanted without it). Formulas as engine/bijectors (Stan's transforms).

#include "engine/core/support.h"
#include "engine/tape/program/builder.h"

namespace variate::tape {

/// `unconstrained` holds the parameter's unconstrained elements (shape
/// bijector.unconstrained_shape(constrained_shape)); returns the constrained value of
/// shape `constrained_shape`. Bounds (lower, upper, interval) come from the support's
/// tensors, broadcast to the value. @throws Unsupported for a support without a kernel.
Slot emit_constrain(ProgramBuilder& builder, const Support& support, const Slot& unconstrained,
                    const Shape& constrained_shape);

}  // namespace variate::tape
