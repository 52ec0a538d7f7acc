#pragma once
/// The base of every distribution family: log density with all normalizing constants,
/// reproducible sampling, support, and batch/event shapes (TFP's shape semantics).

#include <memory>
#include <string>

#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include "engine/core/shape.h"
#include "engine/core/support.h"

namespace variate::distributions {

/// Parameters broadcast to `batch_shape`; one draw has `event_shape` (empty for
/// univariate families). Leading dimensions beyond batch_shape in a value (a batch of
/// points, a sample shape) broadcast through log_prob.
class Distribution {
 public:
  virtual ~Distribution() = default;

  /// The family as users write it: "Normal", "HalfCauchy".
  virtual std::string name() const = 0;
  /// Log density (or mass) of `value`, all constants included; -inf outside the support.
  /// Shape: broadcast(value's leading dims, batch_shape); event dimensions are reduced.
  virtual at::Tensor log_prob(const at::Tensor& value) const = 0;
  /// Draws of shape sample_shape + batch_shape + event_shape, using only `generator`.
  virtual at::Tensor sample(const Shape& sample_shape, at::Generator generator) const = 0;
  virtual Support support() const = 0;

  const Shape& batch_shape() const { return batch_shape_; }
  const Shape& event_shape() const { return event_shape_; }

 protected:
  Distribution() = default;
  /// Families call this in their constructor, once parameters are broadcast.
  void set_shapes(Shape batch_shape, Shape event_shape = {}) {
    batch_shape_ = std::move(batch_shape);
    event_shape_ = std::move(event_shape);
  }

  /// sample_shape + batch_shape + event_shape.
  Shape extended_shape(const Shape& sample_shape) const {
    return concat(concat(sample_shape, batch_shape_), event_shape_);
  }

 private:
  Shape batch_shape_;
  Shape event_shape_;
};

}  // namespace variate::distributions
