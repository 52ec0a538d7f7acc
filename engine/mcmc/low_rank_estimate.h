#pragma once
/// The low-rank + diagonal inverse metric from a window of draws and their gradients
/// (Seyboldt, Carlson & Carpenter's Fisher-divergence estimate, as nutpie's): each
/// coordinate is first scaled by s_i = (sd(draws_i) / sd(gradients_i))^(1/2), the diagonal
/// estimate; in the scaled space, where the draws and the gradients span a subspace, the
/// covariance that minimizes the Fisher divergence there is the geometric mean
/// A # B^-1 = B^-1/2 (B^1/2 A B^1/2)^1/2 B^-1/2 of the draws' covariance A and the inverse
/// of the gradients' covariance B (for a Gaussian posterior A = B^-1 = its covariance). Its
/// eigenvalues far from 1 (above `cutoff` or below 1 / `cutoff`) are kept:
///
///   inverse metric = S (I + sum_k (value_k - 1) u_k u_k') S,   S = diag(s).

#include <cstddef>
#include <vector>

namespace variate {

struct LowRankEstimate {
  std::vector<double> variances;  ///< d: the diagonal part, s_i^2
  std::vector<double> values;     ///< r eigenvalues kept
  std::vector<double> vectors;    ///< r x d row-major: orthonormal eigenvectors, in the scaled space
};

/// A coordinate's variance is clamped into [kSmallestVariance, kLargestVariance] (nutpie's
/// bounds); one whose draws or gradients do not vary in the window gets 1.
constexpr double kSmallestVariance = 1e-20;
constexpr double kLargestVariance = 1e20;

/// From n >= 2 draws and their gradients (each n vectors of d). The subspace is the whole
/// space when d <= 2n and d <= 100, else the span of the last 50 scaled draws and
/// gradients (where the estimate is exact for a Gaussian whose covariance leaves that span
/// invariant; elsewhere the metric is the diagonal one).
LowRankEstimate estimate_low_rank(const std::vector<std::vector<double>>& draws,
                                  const std::vector<std::vector<double>>& gradients, double cutoff);

}  // namespace variate
