#include "engine/distributions/lkj_corr_cholesky.h"

#include <algorithm>
#include <limits>

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"
#include "engine/distributions/standard_draws.h"

namespace variate {
namespace distributions {
namespace {

// Beta(a, b) draws as X / (X + Y) with Gamma draws, so that only `generator` is used.
// Returns (y, 1 - y), each computed without cancellation.
std::pair<at::Tensor, at::Tensor> sample_beta(const at::Tensor& a, const at::Tensor& b,
                                              at::Generator generator) {
  const at::Tensor x = standard_gamma(a, generator);
  const at::Tensor y = standard_gamma(b, generator);
  const at::Tensor total = x + y;
  return {x / total, y / total};
}

}  // namespace

LKJCorrCholesky::LKJCorrCholesky(int64_t dimension, at::Tensor eta) : dimension_(dimension) {
  const at::Tensor k = at::scalar_tensor(static_cast<double>(dimension), at::kDouble);
  throw_if_any("LKJCorrCholesky", "K", k, k < 2, "at least 2");
  eta_ = broadcast_parameters("LKJCorrCholesky", {std::move(eta)})[0];
  check_positive("LKJCorrCholesky", "eta", eta_);
  check_finite("LKJCorrCholesky", "eta", eta_);

  // LKJ (2009) eq. 16 with m = K - k for k = 1..K-1:
  //   log c = sum_m (2 eta - 2 + m) m log 2 + m log B(eta + (m - 1) / 2, eta + (m - 1) / 2).
  const at::Tensor m = at::arange(1, dimension, eta_.options());
  const at::Tensor e = eta_.unsqueeze(-1);
  const at::Tensor b = e + (m - 1) / 2;
  const at::Tensor log_beta = 2 * at::lgamma(b) - at::lgamma(2 * b);
  log_normalizer_ = ((2 * e - 2 + m) * m * kLog2 + m * log_beta).sum(-1);
  set_shapes(eta_.sizes().vec(), {dimension, dimension});
}

at::Tensor LKJCorrCholesky::log_prob(const at::Tensor& value) const {
  const int64_t k = dimension_;
  if (value.dim() < 2 || value.size(-1) != k || value.size(-2) != k) {
    throw ArgumentError("LKJCorrCholesky: value must end in shape [" + std::to_string(k) +
                        ", " + std::to_string(k) + "], got shape " +
                        to_string(value.sizes()));
  }
  const at::Tensor l = as_floating(value, eta_);
  const at::Tensor diagonal = l.diagonal(0, -2, -1);
  // Rows i = 2..K (1-based) carry exponent K - i + 2 eta - 2; row 1's diagonal is 1.
  const at::Tensor i = at::arange(2, k + 1, eta_.options());
  const at::Tensor exponent = (static_cast<double>(k) - i - 2) + 2 * eta_.unsqueeze(-1);
  // A diagonal entry that is not positive is outside the support: its log is taken of 1
  // instead, so that the masked density keeps a gradient of 0 in eta, not 0 * NaN.
  const at::Tensor below = diagonal.narrow(-1, 1, k - 1);
  const at::Tensor log_diagonal = at::log(at::where(below > 0, below, at::ones_like(below)));
  const at::Tensor log_prob = (exponent * log_diagonal).sum(-1) - log_normalizer_;

  const at::Tensor lower_triangular = (l.triu(1) == 0).flatten(-2).all(-1);
  const at::Tensor positive_diagonal = (diagonal > 0).all(-1);
  const at::Tensor unit_rows =
      (at::abs(l.square().sum(-1) - 1) < rounding_tolerance(l.scalar_type(), k)).all(-1);
  return mask_outside_support(log_prob, lower_triangular & positive_diagonal & unit_rows);
}

at::Tensor LKJCorrCholesky::sample(const Shape& sample_shape, at::Generator generator) const {
  // Onion method (LKJ 2009, Sec. 3.2) on the Cholesky factor, as in NumPyro and TFP:
  // row i (0-based, i >= 1) is (sqrt(y_i) u_i, sqrt(1 - y_i)) with u_i uniform on the unit
  // sphere of R^i and y_i ~ Beta(i / 2, eta + (K - 2) / 2 - (i - 1) / 2). Row 0 is e_1.
  const int64_t k = dimension_;
  const Shape batch = concat(sample_shape, batch_shape());
  const at::Tensor rows = at::arange(1, k, eta_.options());
  const at::Tensor eta = eta_.expand(batch).unsqueeze(-1);
  const at::Tensor a = (rows / 2).expand(concat(batch, {k - 1}));
  const at::Tensor b = eta + (static_cast<double>(k) - 2) / 2 - (rows - 1) / 2;
  const auto [y, one_minus_y] = sample_beta(a.contiguous(), b.contiguous(), generator);

  // Directions: normal draws in the strictly lower triangle, each row normalized.
  const at::Tensor normal =
      at::normal(0.0, 1.0, concat(batch, {k - 1, k}), generator, eta_.options()).tril(0);
  const at::Tensor direction = normal / normal.norm(2, -1, /*keepdim=*/true);
  const at::Tensor below = at::sqrt(y).unsqueeze(-1) * direction;  // rows 1..K-1

  const at::Tensor first_row = at::zeros(concat(batch, {1, k}), eta_.options());
  const at::Tensor strict = at::cat({first_row, below}, -2);
  at::Tensor diagonal = at::cat({at::ones(concat(batch, {1}), eta_.options()),
                                 at::sqrt(one_minus_y)}, -1);
  return strict + at::diag_embed(diagonal);
}

}  // namespace distributions

RandomVariable LKJCorrCholesky(std::string name, int64_t K, const TensorArg& eta,
                               Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::LKJCorrCholesky>(K, eta),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
