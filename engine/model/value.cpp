#include "engine/model/value.h"

#include <algorithm>

#include <ATen/ATen.h>

namespace variate::model {

Shape Value::point_shape() const {
  const auto sizes = tensor.sizes();
  return Shape(sizes.begin() + (batched ? 1 : 0), sizes.end());
}

at::Tensor lift(const Value& value, int64_t rank) {
  if (!value.batched || value.rank() >= rank) return value.tensor;
  Shape shape{value.tensor.size(0)};
  shape.insert(shape.end(), static_cast<size_t>(rank - value.rank()), 1);
  const Shape point = value.point_shape();
  shape.insert(shape.end(), point.begin(), point.end());
  return value.tensor.reshape(shape);
}

std::pair<at::Tensor, at::Tensor> align(const Value& a, const Value& b) {
  const int64_t rank = std::max(a.rank(), b.rank());
  return {lift(a, rank), lift(b, rank)};
}

}  // namespace variate::model
