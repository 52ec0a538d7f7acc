#pragma once
/// A bijector maps unconstrained reals onto a distribution's support (TFP's convention:
/// `forward` goes from unconstrained to constrained), with the log-determinant of its
/// Jacobian so densities can be moved to unconstrained space (Stan's transforms).

#include <memory>

#include <ATen/core/Tensor.h>

#include "engine/core/shape.h"

namespace variate::bijectors {

/// Shapes: an unconstrained point has `unconstrained_shape(s)` where a constrained one has
/// shape `s`; both may carry any leading batch dimensions. Elementwise bijectors have
/// event rank 0; vector ones (ordered, simplex) rank 1 on both sides; cholesky_corr maps
/// vectors (rank 1) to matrices (rank 2).
class Bijector {
 public:
  virtual ~Bijector() = default;

  /// "exp", "interval(0, 1)", "simplex", ...
  virtual std::string name() const = 0;
  /// Unconstrained -> constrained.
  virtual at::Tensor forward(const at::Tensor& y) const = 0;
  /// Constrained -> unconstrained.
  virtual at::Tensor inverse(const at::Tensor& x) const = 0;
  /// log |det d forward / d y| at y, with the unconstrained event dimensions reduced:
  /// shape y.shape minus `unconstrained_event_rank()` trailing dimensions.
  virtual at::Tensor forward_log_det_jacobian(const at::Tensor& y) const = 0;

  /// Trailing dimensions of y that one event spans.
  virtual int64_t unconstrained_event_rank() const { return 0; }
  /// Shape of the unconstrained value of one constrained value of shape `constrained`.
  virtual Shape unconstrained_shape(const Shape& constrained) const { return constrained; }
};

using BijectorPtr = std::shared_ptr<const Bijector>;

}  // namespace variate::bijectors
