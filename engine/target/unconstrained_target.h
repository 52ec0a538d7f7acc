#pragma once
/// A model's log density as a function of the unconstrained parameter vector, with its
/// gradient, for one point [d] or a batch of points [B, d] in one tensor computation.

#include <utility>

#include <ATen/core/Tensor.h>

#include "variate/core/log_joint.h"
#include "variate/target/parameter_layout.h"

namespace variate {

class UnconstrainedTarget {
 public:
  UnconstrainedTarget(LogJoint log_joint, ParameterLayout layout);

  int64_t dimension() const { return layout_.dimension(); }
  const ParameterLayout& layout() const { return layout_; }
  const LogJoint& log_joint() const { return log_joint_; }

  /// log p(data, transform(theta)) [+ log|det J|]: 0-dim for theta [d], [B] for [B, d].
  /// Distribution arguments are not validated here (a scale that underflows to 0 gives
  /// -inf or NaN, which samplers treat as a divergence); shape errors still throw.
  at::Tensor log_density(const at::Tensor& theta, bool jacobian = true) const;

  /// The log density and its gradient with respect to theta (same shape as theta).
  std::pair<at::Tensor, at::Tensor> log_density_and_gradient(const at::Tensor& theta,
                                                             bool jacobian = true) const;

 private:
  LogJoint log_joint_;
  ParameterLayout layout_;
};

}  // namespace variate
