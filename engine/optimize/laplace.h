#pragma once
/// The Laplace approximation at a mode: the Gaussian N(mode, (-H)^-1) on the unconstrained
/// scale, H the Hessian of the log density there (hessian.h), as Stan's `laplace` method
/// draws from it. Its draws carry log_p (the model's density, with the Jacobian as the
/// mode was found) and log_g (the Gaussian's normalized density), so that PSIS k-hat of
/// p/g says how far the approximation can be trusted.

#include <cstdint>
#include <vector>

#include <ATen/core/Tensor.h>

#include "engine/target/unconstrained_target.h"

namespace variate {

class LaplaceApproximation {
 public:
  /// @throws ArgumentError if -hessian is not positive definite (a saddle, a flat
  /// direction, a mode at a boundary), naming what to try.
  LaplaceApproximation(std::vector<double> mode, const at::Tensor& hessian);

  const std::vector<double>& mode() const { return mode_; }
  /// (-H)^-1 [d, d].
  at::Tensor covariance() const;

  struct Draws {
    at::Tensor unconstrained;  ///< [n, d]
    at::Tensor log_p;          ///< [n]
    at::Tensor log_g;          ///< [n]
  };
  /// n draws from the stream (seed, stream); log_p from `target` with or without the
  /// Jacobian.
  Draws draw(const UnconstrainedTarget& target, int64_t n, bool jacobian, uint64_t seed, uint64_t stream = 1) const;

 private:
  std::vector<double> mode_;
  at::Tensor precision_cholesky_;  ///< L with L L^T = -H
};

}  // namespace variate
