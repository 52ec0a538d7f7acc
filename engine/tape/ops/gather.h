#pragma once
/// Gathers: out[i] = x[map[i]], with the adjoint scattered back (added, so repeated
/// indices accumulate). Indexing by integers, integer arrays and ranges, and broadcasting
/// a value to a larger shape, are all gathers with a map computed when the tape is built.

#include <vector>

#include "engine/tape/program/builder.h"

namespace variate::tape {

/// `map` holds offsets into x (0-based), one per element of `shape`.
Slot emit_gather(ProgramBuilder& builder, const Slot& x, const std::vector<int64_t>& map,
                 const Shape& shape);

/// x broadcast to `shape` under NumPy's rules (x as it is when the shapes are equal).
/// @throws Unsupported when the shapes do not broadcast.
Slot broadcast_to(ProgramBuilder& builder, const Slot& x, const Shape& shape);

/// The NumPy broadcast of two shapes. @throws Unsupported when they do not broadcast.
Shape broadcast_shapes(const Shape& a, const Shape& b);

}  // namespace variate::tape
