#include "engine/tape/constrain/constrain_ops.h"

#include <ATen/ATen.h>

#include "engine/bijectors/make_bijector.h"
#include "engine/core/argument_error.h"
#include "engine/tape/constrain/constrain_kernels.h"
#include "engine/tape/ops/gather.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

// A value with no unconstrained elements (a simplex of one entry, a 1 x 1 correlation
// factor, an empty vector) is fixed: the bijector's own output, as data.
Slot constant_value(ProgramBuilder& builder, const bijectors::Bijector& bijector,
                    const Shape& unconstrained_shape, const Shape& constrained_shape) {
  const at::Tensor x = bijector.forward(at::zeros(unconstrained_shape, at::kDouble)).contiguous();
  const double* data = x.data_ptr<double>();
  return builder.constant(constrained_shape, std::vector<double>(data, data + x.numel()));
}

// A bound that would broadcast the value itself to a larger shape: the bijector's output
// would not have the value's shape.
void check_bounds_fit(const Support& support, const Shape& shape) {
  for (const at::Tensor& bound : {support.lower(), support.upper()}) {
    if (bound.defined() && broadcast_shapes(bound.sizes().vec(), shape) != shape) {
      throw Unsupported("the tape has no kernel for a bound of shape " + to_string(bound.sizes()) +
                        " on a value of shape " + to_string(shape));
    }
  }
}

}  // namespace

Slot emit_constrain(ProgramBuilder& builder, const Support& support, const Slot& unconstrained,
                    const Shape& constrained_shape) {
  if (support.is_discrete()) {
    throw Unsupported("the tape has no kernel for the transform to " + support.to_string() +
                      " (a discrete support has no bijector)");
  }
  // The bijector checks the bounds and the shape as the LibTorch path does.
  const bijectors::BijectorPtr bijector = bijectors::make_bijector(support);
  const Shape shape = bijector->unconstrained_shape(constrained_shape);
  if (unconstrained.size != numel(shape)) {
    throw ArgumentError("emit_constrain: " + std::to_string(unconstrained.size) +
                        " unconstrained values for a " + support.to_string() + " value of shape " +
                        to_string(constrained_shape) + ", which takes " + to_string(shape));
  }
  if (!unconstrained.varying) {
    throw ArgumentError("emit_constrain: the unconstrained value must depend on parameters");
  }
  const Slot y{unconstrained.offset, unconstrained.size, shape, true};
  using Kind = Support::Kind;
  if (support.kind() == Kind::Real) return Slot{y.offset, y.size, constrained_shape, true};
  check_bounds_fit(support, constrained_shape);
  if (y.size == 0) return constant_value(builder, *bijector, shape, constrained_shape);
  switch (support.kind()) {
    case Kind::LowerBounded:
      return emit_lower_bound(builder, support.lower(), y);
    case Kind::UpperBounded:
      return emit_upper_bound(builder, support.upper(), y);
    case Kind::Interval:
      return emit_interval(builder, support.lower(), support.upper(), y);
    case Kind::Ordered:
      return emit_ordered(builder, y);
    case Kind::PositiveOrdered:
      return emit_positive_ordered(builder, y);
    case Kind::Simplex:
      return emit_simplex(builder, y, constrained_shape);
    case Kind::CholeskyCorr:
      return emit_cholesky_corr(builder, y, constrained_shape);
    default:
      break;
  }
  throw Unsupported("the tape has no kernel for the transform to " + support.to_string());
}

}  // namespace variate::tape
