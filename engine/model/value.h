#pragma once
/// Values inside a compiled model: one point's tensor, or a batch of points with a
/// leading batch dimension [B, *point_shape]. Batched and unbatched values combine under
/// NumPy broadcasting of their point shapes.

#include <utility>

#include <ATen/core/Tensor.h>

#include "engine/core/shape.h"

namespace variate::model {

struct Value {
  at::Tensor tensor;
  bool batched = false;
  /// Integer-typed (counts, sizes, index arithmetic); reals otherwise.
  bool integer = false;

  int64_t rank() const { return tensor.dim() - (batched ? 1 : 0); }
  Shape point_shape() const;
  int64_t batch_size() const { return batched ? tensor.size(0) : 1; }
};

/// The tensor with singleton dimensions inserted after the batch dimension so that its
/// point rank is at least `rank` (unbatched tensors broadcast from the right as they are).
at::Tensor lift(const Value& value, int64_t rank);

/// The two tensors, lifted so that elementwise operations broadcast point shapes.
std::pair<at::Tensor, at::Tensor> align(const Value& a, const Value& b);

/// A value's point dimension `d` as a tensor dimension.
inline int64_t tensor_dim(const Value& value, int64_t d) { return value.batched ? d + 1 : d; }

}  // namespace variate::model
