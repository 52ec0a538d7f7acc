#pragma once
/// The pass over the data behind a fused GLM likelihood: for a linear predictor
/// eta = alpha + X beta, the sum over rows of a family's log-likelihood term and the
/// gradient sums X^T r, with X read once from memory (Stan's *_glm functions, e.g. Stan
/// Math's prim/prob/bernoulli_logit_glm_lpmf.hpp, do the same with Eigen).
///
/// Rows are cut into fixed chunks whose slice of X fits in the L2 cache; per chunk, eta
/// is built column by column, the family's terms are evaluated with vectorized exp/log1p
/// (kernels/vector_math.h), and X's slice is read again from the cache for X^T r. Chunks
/// run in parallel (at::parallel_for) and their partial sums are added in chunk order, so
/// results do not depend on the number of threads.

#include <ATen/core/Tensor.h>

namespace variate::kernels {

enum class GlmFamily {
  normal,          // y ~ Normal(eta, sigma)
  bernoulli_logit, // y ~ Bernoulli(logits = eta)
  poisson_log,     // y ~ Poisson(log_rate = eta)
  binomial_logit,  // y ~ Binomial(trials, logits = eta)
};

/// "Normal", "Bernoulli(logits)", "Poisson(log_rate)", "Binomial(logits)".
const char* glm_family_name(GlmFamily family);

/// B points of coefficients: alpha_b = alpha[b * alpha_stride] and beta_b = beta + b *
/// beta_stride ([K] each); a stride of 0 shares one value between all points.
struct GlmPoints {
  const double* alpha = nullptr;
  int64_t alpha_stride = 0;
  const double* beta = nullptr;
  int64_t beta_stride = 0;
  int64_t count = 1;
};

/// Sums over the N rows for each point b, written to out[b * (2 + K) + ...] in float64:
///   [0]      sum_n f(y_n, eta_bn)
///   [1]      sum_n r_bn
///   [2 + k]  sum_n X_nk r_bn   (only with `gradient`; left untouched otherwise)
/// with, per family: Normal f = (y - eta)^2, r = y - eta (the caller scales by sigma);
/// Bernoulli f = y eta - softplus(eta), r = y - sigmoid(eta); Poisson f = y eta - e^eta,
/// r = y - e^eta; binomial f = y eta - trials softplus(eta), r = y - trials sigmoid(eta).
/// The terms that do not depend on eta (lgamma, log binomial coefficients, log 2 pi) are
/// left to the caller.
///
/// `x_columns` [K, N] contiguous (X stored column-major), `y` [N] and, for the binomial,
/// `trials` [N], all contiguous and of one floating dtype (float32 terms are still summed
/// in float64).
/// @throws ArgumentError for mismatched shapes or dtypes.
void glm_sums(GlmFamily family, const at::Tensor& x_columns, const at::Tensor& y, const at::Tensor& trials,
              const GlmPoints& points, bool gradient, double* out);

}  // namespace variate::kernels
