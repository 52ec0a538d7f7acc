#pragma once
/// Stacks slots of one shape along a new leading axis: the items of a vector literal
/// (`[a, b, 1 - a]`, `[theta1, theta2]`) and the elements of a recurrence. Each varying
/// item is one copy op into its row, whose backward adds the row's adjoint back; constant
/// items are copied too (their adjoints are never read).

#include <vector>

#include "engine/tape/program/builder.h"

namespace variate::tape {

/// A slot of shape [items.size(), item shape...]; a constant when no item varies.
/// @throws Unsupported when the items' shapes differ.
Slot emit_stack(ProgramBuilder& builder, const std::vector<Slot>& items);

}  // namespace variate::tape
