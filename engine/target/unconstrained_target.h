#pragma once
/// A model's log density as a function of the unconstrained parameter vector, with its
/// gradient, for one point [d] or a batch of points [B, d] in one tensor computation —
/// or, when it carries a PointDensity (another backend's, point_density.h), through that
/// backend point by point for every evaluation that needs no autograd graph.

#include <memory>
#include <string>
#include <utility>

#include <ATen/core/Tensor.h>

#include "engine/core/log_joint.h"
#include "engine/target/parameter_layout.h"
#include "engine/target/point_density.h"

namespace variate {

class UnconstrainedTarget {
 public:
  /// `device`: where the model computes (its data's device); points and results stay on
  /// the caller's device.
  UnconstrainedTarget(LogJoint log_joint, ParameterLayout layout, at::Device device = at::kCPU);

  int64_t dimension() const { return layout_.dimension(); }
  const ParameterLayout& layout() const { return layout_; }
  const LogJoint& log_joint() const { return log_joint_; }

  /// The same density, evaluated by `density` (of the same model and layout).
  UnconstrainedTarget with_point_density(std::shared_ptr<const PointDensity> density) const;
  /// The same density on LibTorch alone.
  UnconstrainedTarget torch_only() const { return UnconstrainedTarget(log_joint_, layout_, device_); }
  at::Device device() const { return device_; }
  /// nullptr on LibTorch alone.
  const std::shared_ptr<const PointDensity>& point_density() const { return point_density_; }
  /// What evaluates it: "torch", or the point density's backend ("tape").
  std::string backend() const { return point_density_ ? point_density_->backend() : "torch"; }
  /// The points rejected so far because an argument computed from the parameters was
  /// outside its domain, on either backend.
  ArgumentRejections argument_rejections() const;

  /// log p(data, transform(theta)) [+ log|det J|]: 0-dim for theta [d], [B] for [B, d].
  /// For one point (a sampler's) the distributions' arguments are checked, as Stan checks
  /// them: one outside its domain makes the density -inf (counted in
  /// argument_rejections). A batch is evaluated without checks (a scale that underflows
  /// to 0 gives -inf or NaN, which samplers treat as a divergence); shape errors throw.
  /// With a point density, theta on the CPU in float64 that requires no gradient goes
  /// through it.
  at::Tensor log_density(const at::Tensor& theta, bool jacobian = true) const;

  /// The log density and its gradient with respect to theta (same shape as theta).
  std::pair<at::Tensor, at::Tensor> log_density_and_gradient(const at::Tensor& theta,
                                                             bool jacobian = true) const;

 private:
  bool uses_point_density(const at::Tensor& theta) const;

  LogJoint log_joint_;
  ParameterLayout layout_;
  at::Device device_;
  std::shared_ptr<RejectionTally> torch_rejections_ = std::make_shared<RejectionTally>();
  std::shared_ptr<const PointDensity> point_density_;
};

}  // namespace variate
