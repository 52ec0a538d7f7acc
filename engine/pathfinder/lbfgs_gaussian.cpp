#include "engine/pathfinder/lbfgs_gaussian.h"

#include <cmath>

#include <ATen/ATen.h>

namespace variate {

at::Tensor update_diagonal(const at::Tensor& alpha, const at::Tensor& s, const at::Tensor& y) {
  const double a = (y * alpha * y).sum().item<double>();
  const double b = (y * s).sum().item<double>();
  const double c = (s * s / alpha).sum().item<double>();
  const at::Tensor inverse = a / (b * alpha) + y * y / b - a * s * s / (b * c * alpha * alpha);
  const at::Tensor updated = 1 / inverse;
  // A rounding-broken update (non-positive or non-finite entries) keeps the old diagonal.
  if (!at::isfinite(updated).all().item<bool>() || !(updated > 0).all().item<bool>()) return alpha;
  return updated;
}

std::optional<LbfgsGaussian> LbfgsGaussian::at_point(const at::Tensor& x, const at::Tensor& grad_log_p,
                                                     const at::Tensor& alpha, const at::Tensor& s,
                                                     const at::Tensor& y) {
  LbfgsGaussian g;
  const int64_t d = x.size(0), m = s.size(1);
  g.alpha_ = alpha;
  if (m == 0) {
    g.beta_ = at::zeros({d, 0}, at::kDouble);
    g.gamma_ = at::zeros({0, 0}, at::kDouble);
  } else {
    const at::Tensor sy = at::matmul(s.t(), y);
    const at::Tensor r = at::triu(sy);
    const at::Tensor r_inverse = at::linalg_solve_triangular(r, at::eye(m, at::kDouble), /*upper=*/true);
    const at::Tensor alpha_y = alpha.unsqueeze(1) * y;
    const at::Tensor block = at::matmul(at::matmul(r_inverse.t(), at::diag(at::diagonal(sy)) + at::matmul(y.t(), alpha_y)),
                                        r_inverse);
    g.beta_ = at::cat({alpha_y, s}, 1);
    g.gamma_ = at::cat({at::cat({at::zeros({m, m}, at::kDouble), -r_inverse}, 1), at::cat({-r_inverse.t(), block}, 1)}, 0);
  }
  g.mean_ = x + alpha * grad_log_p + at::matmul(g.beta_, at::matmul(g.gamma_, at::matmul(g.beta_.t(), grad_log_p)));
  const at::Tensor root = at::sqrt(alpha);
  if (m == 0) {
    g.q_ = at::zeros({d, 0}, at::kDouble);
    g.cholesky_ = at::zeros({0, 0}, at::kDouble);
  } else {
    const auto [q, r] = at::linalg_qr(g.beta_ / root.unsqueeze(1), "reduced");
    const int64_t k = r.size(0);
    const auto [cholesky, info] =
        at::linalg_cholesky_ex(at::eye(k, at::kDouble) + at::matmul(at::matmul(r, g.gamma_), r.t()));
    if (info.item<int64_t>() != 0) return std::nullopt;
    g.q_ = q;
    g.cholesky_ = cholesky;
  }
  g.log_det_ = at::log(alpha).sum().item<double>() + 2 * at::log(at::diagonal(g.cholesky_)).sum().item<double>();
  if (!std::isfinite(g.log_det_) || !at::isfinite(g.mean_).all().item<bool>()) return std::nullopt;
  return g;
}

at::Tensor LbfgsGaussian::covariance() const {
  return at::diag(alpha_) + at::matmul(at::matmul(beta_, gamma_), beta_.t());
}

std::pair<at::Tensor, at::Tensor> LbfgsGaussian::draw(int64_t n, at::Generator& generator) const {
  const int64_t d = mean_.size(0), k = cholesky_.size(0);
  const at::Tensor u = at::randn({n, d}, generator, at::kDouble);
  // phi = mu + diag(sqrt(alpha)) (Q (L - I) Q' u + u), row by row.
  at::Tensor whitened = u;
  if (k > 0) {
    const at::Tensor projected = at::matmul(u, q_);                                   // [n, k]
    const at::Tensor mixed = at::matmul(projected, (cholesky_ - at::eye(k, at::kDouble)).t());  // [n, k]
    whitened = u + at::matmul(mixed, q_.t());
  }
  const at::Tensor points = mean_.unsqueeze(0) + whitened * at::sqrt(alpha_).unsqueeze(0);
  const at::Tensor log_q = -0.5 * (log_det_ + (u * u).sum(1) + d * std::log(2 * M_PI));
  return {points, log_q};
}

}  // namespace variate
