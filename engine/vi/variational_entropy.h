#pragma once
/// Closed-form entropies of the Gaussian families, which ADVI uses in place of a Monte
/// Carlo estimate of -E_q[log q] (Kucukelbir et al. 2017, Sec. 2.4 and 2.5).

#include <optional>

#include <ATen/core/Tensor.h>

#include "engine/core/random_variable.h"

namespace variate {

/// The entropy of `rv`'s distribution summed over its whole value (sample, batch and
/// event dimensions), 0-dim and differentiable in the distribution's arguments: for a
/// Normal, sum(0.5 log(2 pi e) + log sigma); for a MultiNormal with Cholesky factor L,
/// 0.5 K log(2 pi e) + sum(log diag L) per vector. nullopt for other families.
std::optional<at::Tensor> analytic_entropy(const RandomVariable& rv);

}  // namespace variate
