#pragma once
/// Shapes of tensors and random variables, as plain vectors.

#include <cstdint>
#include <string>
#include <vector>

#include <c10/util/ArrayRef.h>

namespace variate {

using Shape = std::vector<int64_t>;

/// "[8, 3]", "[]" for a scalar.
std::string to_string(c10::IntArrayRef shape);

/// Number of elements of a shape (1 for a scalar).
int64_t numel(c10::IntArrayRef shape);

/// NumPy broadcasting of two shapes. @throws ArgumentError if they do not broadcast.
Shape broadcast_shapes(c10::IntArrayRef a, c10::IntArrayRef b);

/// Concatenation, e.g. sample_shape + batch_shape + event_shape.
Shape concat(c10::IntArrayRef a, c10::IntArrayRef b);

}  // namespace variate
