#pragma once
/// An observed variable's log likelihood element by element, as `log_lik` records it (one
/// column per observation, PSIS-LOO's input): the family's log density at each element,
/// from the formulas its sink sums (pointwise_family.h and the family headers), with the
/// data's own terms (log k!, binomial coefficients) folded by the LibTorch functions its
/// log_prob calls. An op of a predictive program (model_compiler.h): it writes n values
/// into `out`, in the value's row-major order, and has no gradient.

#include "engine/tape/densities/log_density_ops.h"

namespace variate::tape {

/// @throws Unsupported for a family without a pointwise kernel here (the multivariate
/// ones, a Mixture of a component without a Mixture kernel, the improper Flat and HalfFlat),
/// naming it.
void emit_pointwise_log_density(ProgramBuilder& builder, const DensityTerm& term, const Slot& out);

}  // namespace variate::tape
