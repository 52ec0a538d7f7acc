#pragma once
/// A log joint that evaluates a batch of points one point at a time, for models written
/// for one point: C++ that indexes `beta[0]` or multiplies `vt::matmul(X, beta)` (as
/// exported programs and most hand-written models do) is not batch-polymorphic, so
/// algorithms that evaluate batches [B, d] (ADVI's ELBO) must not hand it one. Each
/// point's log density is then exactly what a single evaluation gives.
///
///   const auto layout = ParameterLayout::from_model(log_joint);
///   const UnconstrainedTarget target(pointwise_log_joint(log_joint, layout), layout);

#include "engine/core/log_joint.h"
#include "engine/target/parameter_layout.h"

namespace variate {

/// Evaluates `log_joint` once for a single point and B times for a batch of B points, on a
/// helper thread (where the asking evaluation's tracers do not see the model's variables).
/// Gradients flow to the batch's values as usual.
LogJoint pointwise_log_joint(const LogJoint& log_joint, const ParameterLayout& layout);

}  // namespace variate
