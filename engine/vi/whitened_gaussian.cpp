#include "engine/vi/whitened_gaussian.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/vi/variational_fullrank.h"
#include "engine/vi/variational_meanfield.h"

namespace variate {

WhitenedGaussian::WhitenedGaussian(ParameterLayout layout, AdviMethod method, const at::Tensor& center,
                                   const at::Tensor& covariance)
    : layout_(std::move(layout)), method_(method) {
  const int64_t d = layout_.dimension();
  center_ = initial_mean("WhitenedGaussian", layout_, center);
  if (covariance.dim() != 2 || covariance.size(0) != d || covariance.size(1) != d) {
    throw ArgumentError("WhitenedGaussian: argument 'covariance' must have shape [" + std::to_string(d) + ", " +
                        std::to_string(d) + "], got " + to_string(covariance.sizes()));
  }
  const at::Tensor sigma = covariance.detach().to(at::kDouble);
  const auto [whitening, info] = at::linalg_cholesky_ex(0.5 * (sigma + sigma.t()));
  if (info.item<int64_t>() != 0 || !at::isfinite(whitening).all().item<bool>()) {
    throw ArgumentError("WhitenedGaussian: argument 'covariance' is not positive definite");
  }
  whitening_ = whitening;
  v_ = at::zeros({d}, at::kDouble).requires_grad_(true);
  if (method_ == AdviMethod::meanfield) {
    const at::Tensor precision = at::cholesky_inverse(whitening_);
    omega_ = (-0.5 * at::log(precision.diagonal())).contiguous().requires_grad_(true);
  } else {
    lower_ = at::zeros({d, d}, at::kDouble).requires_grad_(true);
    omega_ = at::zeros({d}, at::kDouble).requires_grad_(true);
  }
}

std::vector<at::Tensor> WhitenedGaussian::parameters() const {
  if (method_ == AdviMethod::meanfield) return {v_, omega_};
  return {v_, lower_, omega_};
}

at::Tensor WhitenedGaussian::mean() const { return center_ + at::matmul(whitening_, v_); }

at::Tensor WhitenedGaussian::scale_tril() const {
  return at::matmul(whitening_, at::tril(lower_, -1) + at::diag_embed(at::exp(omega_)));
}

void WhitenedGaussian::program() const {
  if (method_ == AdviMethod::meanfield) {
    normal_blocks(layout_, mean(), at::exp(omega_));
  } else {
    multi_normal_blocks(layout_, mean(), scale_tril());
  }
}

std::shared_ptr<VariationalFamily> WhitenedGaussian::to_plain() const {
  at::NoGradGuard no_grad;
  const at::Tensor mu = mean().detach();
  if (method_ == AdviMethod::meanfield) {
    auto plain = std::make_shared<MeanFieldGaussian>(layout_, mu);
    restore_parameters(*plain, {mu, omega_.detach()});
    return plain;
  }
  // A product of lower-triangular factors is lower triangular, its diagonal the product
  // of theirs (positive): the full-rank family's own parameterization.
  const at::Tensor l = scale_tril().detach();
  auto plain = std::make_shared<FullRankGaussian>(layout_, mu);
  restore_parameters(*plain, {mu, at::tril(l, -1), at::log(l.diagonal())});
  return plain;
}

}  // namespace variate
