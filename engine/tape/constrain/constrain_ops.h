#pragma once
/// Bijectors as ops: the constrained value of a parameter from its unconstrained slice,
/// and the log|det J| of the transform as a sink marked `jacobian` (skipped when the
/// density is wanted without it). Formulas as engine/bijectors (Stan's transforms).

#include <optional>

#include "engine/core/support.h"
#include "engine/tape/program/builder.h"

namespace variate::tape {

/// `unconstrained` holds the parameter's unconstrained elements (shape
/// bijector.unconstrained_shape(constrained_shape)); returns the constrained value of
/// shape `constrained_shape`. Bounds (lower, upper, interval) come from the support's
/// tensors, broadcast to the value. @throws Unsupported for a support without a kernel.
Slot emit_constrain(ProgramBuilder& builder, const Support& support, const Slot& unconstrained,
                    const Shape& constrained_shape);

/// The transform of a value whose bounds are computed at each point (`b ~ Uniform(0, 1 - a)`,
/// `b: real<lower=a>`): lower + exp(y), upper - exp(y) or the interval's, with the bounds'
/// own partials. Each bound holds one value or y's; an absent one leaves that side open
/// (one must be given). Bounds out of order at a point reject it (Sweep::rejected).
Slot emit_bounds_at_point(ProgramBuilder& builder, const std::optional<Slot>& lower,
                          const std::optional<Slot>& upper, const Slot& y);

}  // namespace variate::tape
