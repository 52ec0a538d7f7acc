#pragma once
/// Supports whose bounds are computed from other parameters, as Stan's
/// `real<lower=0, upper=1 - a> b;` or `b ~ Uniform(0, 1 - a)`: the transform of such a
/// parameter takes its bounds at each point. They are found by running the model, whose
/// program order computes each bound from the earlier parameters' values.

#include <map>
#include <optional>
#include <set>
#include <string>

#include <ATen/core/Tensor.h>

#include "engine/core/log_joint.h"
#include "engine/core/support.h"

namespace variate {

struct ConstrainedPoint;

/// Adds to `point` the values of the parameters named in `unconstrained` (each its
/// unconstrained slice, [*shape] or [B, *shape]), made by the transform of the support the
/// model gives them at this point, and their log|det J| to point.log_det_jacobian. The
/// other parameters' values must already be in `point`.
void constrain_at_point(const LogJoint& model, const std::map<std::string, at::Tensor>& unconstrained,
                        ConstrainedPoint& point, std::optional<int64_t> batch_size);

/// The supports the model gives the variables named in `names` when every parameter takes
/// its value from `values` (one point).
std::map<std::string, Support> model_supports_at(const LogJoint& model,
                                                 const std::map<std::string, at::Tensor>& values,
                                                 const std::set<std::string>& names);

/// Whether a support's bounds were computed from values that require a gradient: while a
/// layout is found, parameters' central values do, so such a support depends on them.
bool depends_on_parameters(const Support& support);

}  // namespace variate
