#pragma once
/// A GLM log likelihood, y ~ Family(alpha + X beta [, sigma]), with all normalizing
/// constants, evaluated by the fused kernel (kernels/glm_kernel.h) and differentiated
/// analytically: the gradient is computed in the same pass and handed to autograd by a
/// custom function, so the rest of a model keeps using autograd around it.
///
///   auto data = std::make_shared<const GlmData>(GlmData::make(GlmFamily::bernoulli_logit, X, y));
///   at::Tensor lp = glm_log_likelihood(data, alpha, beta);   // beta [K] -> 0-dim
///   at::Tensor lps = glm_log_likelihood(data, alphas, betas); // betas [B, K] -> [B]

#include <memory>

#include <ATen/core/Tensor.h>

#include "engine/kernels/glm_kernel.h"

namespace variate::kernels {

/// The data side of a GLM likelihood in the kernel's layout, prepared once.
struct GlmData {
  GlmFamily family = GlmFamily::normal;
  at::Tensor x_columns;  // [K, N] contiguous: X column-major
  at::Tensor y;          // [N] contiguous, X's dtype
  at::Tensor trials;     // [N] contiguous, X's dtype (binomial only)
  /// The sum of the terms free of eta: -N/2 log 2 pi (Normal), -sum lgamma(y + 1)
  /// (Poisson), sum log C(trials, y) (binomial), 0 (Bernoulli).
  double constant = 0;
  /// The tensor y was made from, to recognise the bound outcome in log_prob.
  at::Tensor outcome;

  int64_t rows() const { return x_columns.size(1); }
  int64_t columns() const { return x_columns.size(0); }

  /// `X` [N, K] in any layout and floating dtype (a column-major X is used without a
  /// copy), `y` [N] (converted to X's dtype), `trials` (binomial only) [N] or a scalar.
  /// @throws ArgumentError for mismatched shapes or a missing/extra `trials`.
  static GlmData make(GlmFamily family, const at::Tensor& X, const at::Tensor& y,
                      const at::Tensor& trials = {});
  /// The same design and trials with another outcome.
  GlmData with_outcome(const at::Tensor& y) const;
};

/// log p(y | alpha, beta [, sigma]) in float64: 0-dim for one point, [B] for a batch.
/// `alpha`: undefined (no intercept), 0-dim or [B]; `beta`: [K] or [B, K]; `sigma`
/// (Normal only, else undefined): 0-dim or [B]. Any floating dtypes; gradients come back
/// in each input's dtype.
/// @throws ArgumentError for shapes that do not fit the data.
at::Tensor glm_log_likelihood(const std::shared_ptr<const GlmData>& data, const at::Tensor& alpha,
                              const at::Tensor& beta, const at::Tensor& sigma = {});

}  // namespace variate::kernels
