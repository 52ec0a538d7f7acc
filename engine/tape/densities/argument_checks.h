#pragma once
/// Checks of the arguments a model computes from its parameters (a scale, a simplex), made
/// at every evaluation as Stan checks them: one outside its domain marks the sweep rejected
/// and its density -inf, as at a divergence, where the density's formula might otherwise
/// give a finite value for a distribution that is not one (Categorical([a, a, a])).
/// Arguments of data alone were checked when the model was bound and get no check here.

#include "engine/model/argument_domain.h"
#include "engine/tape/program/builder.h"

namespace variate::tape {

/// Checks that `argument` lies in `domain` (a simplex along its last axis); nothing for a
/// constant argument or the domain `any`.
void emit_argument_check(ProgramBuilder& builder, model::ArgumentDomain domain, const Slot& argument);

/// Checks that every element of `argument` is finite (where the distribution checks it);
/// nothing for a constant argument.
void emit_finite_check(ProgramBuilder& builder, const Slot& argument);

/// Checks lo < hi elementwise (Uniform's bounds), where either varies.
void emit_less_check(ProgramBuilder& builder, const Slot& lo, const Slot& hi);

}  // namespace variate::tape
