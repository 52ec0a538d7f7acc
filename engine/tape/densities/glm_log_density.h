#pragma once
/// An observed likelihood the model compiler recognised as a GLM (model/fused_likelihood.h:
/// y ~ Normal(alpha + X beta, sigma), Bernoulli(logits = ...), Poisson(log_rate = ...),
/// Binomial(n, logits = ...)) as one sink over the fused kernel that the LibTorch path uses
/// too (kernels/glm_kernel.h): X is read once per gradient, for the value and X^T r.

#include <memory>
#include <optional>
#include <vector>

#include "engine/kernels/glm_log_likelihood.h"
#include "engine/tape/program/builder.h"

namespace variate::tape {

/// `alpha`: the intercept (one value) or nullopt; `coefficients`: the blocks of beta in the
/// order of X's columns (vectors, or single values for `s * d` terms); `sigma`: one value,
/// Normal only.
void emit_glm_log_density(ProgramBuilder& builder, std::shared_ptr<const kernels::GlmData> data,
                          const std::optional<Slot>& alpha, const std::vector<Slot>& coefficients,
                          const std::optional<Slot>& sigma);

}  // namespace variate::tape
