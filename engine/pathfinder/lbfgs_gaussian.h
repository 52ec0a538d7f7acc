#pragma once
/// The normal approximation Pathfinder builds at one point of an L-BFGS path (Zhang,
/// Carpenter, Gelman & Vehtari 2022, "Pathfinder: Parallel quasi-Newton variational
/// inference", JMLR 23(306), Algorithms 3 and 4): covariance the L-BFGS inverse Hessian
/// Sigma = diag(alpha) + beta gamma beta' (a diagonal estimate plus the compact low-rank
/// BFGS update of the last curvature pairs, Byrd, Nocedal & Schnabel 1994), mean one
/// quasi-Newton step from the point, mu = x + Sigma grad log p(x). Draws cost O(d J^2)
/// through a thin QR factorization of diag(alpha)^-1/2 beta.

#include <cstdint>
#include <optional>
#include <utility>

#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

namespace variate {

class LbfgsGaussian {
 public:
  /// `s`, `y`: the curvature pairs [d, m] (steps and changes of the gradient of -log p,
  /// each with s'y > 0), oldest first; `alpha` [d] the diagonal estimate; `x` the point and
  /// `grad_log_p` the gradient of log p there. nullopt if Sigma is not positive definite.
  static std::optional<LbfgsGaussian> at_point(const at::Tensor& x, const at::Tensor& grad_log_p,
                                               const at::Tensor& alpha, const at::Tensor& s, const at::Tensor& y);

  const at::Tensor& mean() const { return mean_; }
  /// The dense covariance [d, d].
  at::Tensor covariance() const;
  /// n draws [n, d] and their log densities [n] under this Gaussian.
  std::pair<at::Tensor, at::Tensor> draw(int64_t n, at::Generator& generator) const;

 private:
  LbfgsGaussian() = default;

  at::Tensor mean_, alpha_, beta_, gamma_;
  at::Tensor q_, cholesky_;  ///< thin Q of diag(alpha)^-1/2 beta; chol(I + R gamma R')
  double log_det_ = 0;
};

/// Gilbert & Lemarechal's (1989) diagonal update of alpha by one curvature pair, as
/// Pathfinder's Algorithm 3 applies it (alpha starts at ones).
at::Tensor update_diagonal(const at::Tensor& alpha, const at::Tensor& s, const at::Tensor& y);

}  // namespace variate
