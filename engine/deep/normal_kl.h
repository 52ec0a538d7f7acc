#pragma once
/// The Kullback-Leibler divergence of one Normal from another, in closed form: the
/// amortized ELBO's term for a latent variable whose prior and guide are both Normal,
/// exact where the single-draw estimate log p(z) - log q(z) is noisy.
///
///   KL(N(m, s) || N(m0, s0)) = log(s0 / s) + (s^2 + (m - m0)^2) / (2 s0^2) - 1/2

#include <ATen/core/Tensor.h>

namespace variate::deep {

/// KL(N(loc, scale) || N(prior_loc, prior_scale)) elementwise, the arguments broadcast
/// together; differentiable in all four.
at::Tensor normal_kl(const at::Tensor& loc, const at::Tensor& scale, const at::Tensor& prior_loc,
                     const at::Tensor& prior_scale);

}  // namespace variate::deep
