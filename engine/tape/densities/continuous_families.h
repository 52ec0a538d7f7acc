#pragma once
/// The continuous event-rank-0 families by group, one source file each. Each returns false
/// for a family outside its group; emit_continuous_log_density asks them in turn.

#include "engine/tape/densities/log_density_ops.h"

namespace variate::tape {

/// Normal, with kernels specialized on which operands vary and broadcast.
bool emit_normal_log_density(ProgramBuilder& builder, const DensityTerm& term);
/// HalfNormal, Cauchy, HalfCauchy, StudentT, HalfStudentT, Laplace, Logistic.
bool emit_location_scale_log_density(ProgramBuilder& builder, const DensityTerm& term);
/// Exponential, Gamma, InvGamma, LogNormal, Weibull.
bool emit_positive_log_density(ProgramBuilder& builder, const DensityTerm& term);
/// Beta, Uniform.
bool emit_interval_log_density(ProgramBuilder& builder, const DensityTerm& term);
/// Flat, HalfFlat.
bool emit_flat_log_density(ProgramBuilder& builder, const DensityTerm& term);

}  // namespace variate::tape
