#pragma once
/// The sinks of the multivariate group, one source file each; emit_multivariate_log_density
/// (multivariate_log_densities.cpp) dispatches to them.

#include "engine/tape/densities/log_density_ops.h"

namespace variate::tape {

void emit_dirichlet(ProgramBuilder& builder, const DensityTerm& term);
void emit_lkj_corr_cholesky(ProgramBuilder& builder, const DensityTerm& term);
void emit_multi_normal(ProgramBuilder& builder, const DensityTerm& term);
/// @throws Unsupported naming the component family when it has no pointwise kernel.
void emit_mixture(ProgramBuilder& builder, const DensityTerm& term);

}  // namespace variate::tape
