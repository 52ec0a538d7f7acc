#pragma once
/// The sinks of the multivariate group, one source file each; emit_multivariate_log_density
/// (multivariate_log_densities.cpp) dispatches to them. MultiNormal and Mixture also have the
/// predictive program's ops (their pointwise log density, and MultiNormal's draws).

#include "engine/tape/densities/log_density_ops.h"

namespace variate::tape {

void emit_dirichlet(ProgramBuilder& builder, const DensityTerm& term);
void emit_lkj_corr_cholesky(ProgramBuilder& builder, const DensityTerm& term);
void emit_multi_normal(ProgramBuilder& builder, const DensityTerm& term);
/// Each row's MultiNormal log density written to `out` (`log_lik`), by the sink's formula.
void emit_pointwise_multi_normal(ProgramBuilder& builder, const DensityTerm& term, const Slot& out);
/// Each row drawn as mu + L z into `out` (`NAME_rep`), from the sweep's random stream.
void emit_multi_normal_draw(ProgramBuilder& builder, const DensityTerm& term, const Slot& out);
/// @throws Unsupported naming the component family when it has no pointwise kernel.
void emit_mixture(ProgramBuilder& builder, const DensityTerm& term);
/// Each element's Mixture log density written to `out` (`log_lik`), by the sink's formula.
/// @throws Unsupported as emit_mixture.
void emit_pointwise_mixture(ProgramBuilder& builder, const DensityTerm& term, const Slot& out);

}  // namespace variate::tape
