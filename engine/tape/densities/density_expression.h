#pragma once
/// A family's log density as the value of an expression, `Normal(mu, sigma).log_prob(x)`:
/// one element per element of the point, with gradients in the point and the arguments,
/// from the formulas the family's sink sums (pointwise_family.h). log_cdf and log_ccdf are
/// are truncation.cpp's emit_log_cdf.

#include "engine/tape/densities/log_density_ops.h"

namespace variate::tape {

/// `term.value` and each argument of an event-rank-0 family are one value or of the
/// point's shape; the result has the point's shape.
/// @throws Unsupported for a family without a differentiable pointwise kernel here (the
/// discrete families of bounded counts, Categorical, the multivariate ones), naming it.
Slot emit_log_prob(ProgramBuilder& builder, const DensityTerm& term);

}  // namespace variate::tape
