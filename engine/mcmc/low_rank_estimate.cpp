#include "engine/mcmc/low_rank_estimate.h"

#include <algorithm>
#include <cmath>

#include "engine/mcmc/symmetric_eigen.h"

namespace variate {
namespace {

// Added to both covariances' diagonals in the subspace: where neither the draws nor the
// gradients vary, the estimate is then 1 (the diagonal metric's), and it stays finite.
constexpr double kRidge = 1e-3;
// Where d exceeds it, the subspace is spanned by the last kMostDirections / 2 draws and
// gradients: an eigen-decomposition costs ~60 k^3 (Jacobi), 0.1 s at k = 100.
constexpr size_t kMostDirections = 100;

using Rows = std::vector<std::vector<double>>;

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

// An orthonormal basis of the span of `vectors` (modified Gram-Schmidt, each vector
// orthogonalized twice, which keeps the basis orthonormal to rounding); vectors that add
// less than 1e-9 of their length are left out.
Rows orthonormal_basis(const Rows& vectors) {
  Rows basis;
  for (const auto& v : vectors) {
    std::vector<double> w = v;
    const double length = std::sqrt(dot(w, w));
    if (!(length > 0)) continue;
    for (int pass = 0; pass < 2; ++pass) {
      for (const auto& b : basis) {
        const double projection = dot(w, b);
        for (size_t i = 0; i < w.size(); ++i) w[i] -= projection * b[i];
      }
    }
    const double left = std::sqrt(dot(w, w));
    if (!(left > 1e-9 * length)) continue;
    for (double& x : w) x /= left;
    basis.push_back(std::move(w));
  }
  return basis;
}

// (1/n) sum_j p_j p_j' + ridge I of the rows' projections onto `basis` (k x k).
std::vector<double> projected_covariance(const Rows& rows, const Rows& basis) {
  const size_t k = basis.size();
  std::vector<double> covariance(k * k, 0.0);
  std::vector<double> p(k);
  for (const auto& row : rows) {
    for (size_t a = 0; a < k; ++a) p[a] = dot(row, basis[a]);
    for (size_t a = 0; a < k; ++a) {
      for (size_t b = a; b < k; ++b) covariance[a * k + b] += p[a] * p[b];
    }
  }
  const double n = static_cast<double>(rows.size());
  for (size_t a = 0; a < k; ++a) {
    for (size_t b = a; b < k; ++b) covariance[b * k + a] = covariance[a * k + b] /= n;
    covariance[a * k + a] += kRidge;
  }
  return covariance;
}

std::vector<double> product(const std::vector<double>& x, const std::vector<double>& y, size_t k) {
  std::vector<double> out(k * k, 0.0);
  for (size_t i = 0; i < k; ++i) {
    for (size_t m = 0; m < k; ++m) {
      const double left = x[i * k + m];
      for (size_t j = 0; j < k; ++j) out[i * k + j] += left * y[m * k + j];
    }
  }
  return out;
}

// A # B^-1 = B^-1/2 (B^1/2 A B^1/2)^1/2 B^-1/2.
std::vector<double> geometric_mean_with_inverse(const std::vector<double>& a, const std::vector<double>& b, size_t k) {
  const SymmetricEigen b_eigen = symmetric_eigen(b, k);
  const auto b_root = matrix_function(b_eigen, k, [](double v) { return std::sqrt(v); });
  const auto b_inverse_root = matrix_function(b_eigen, k, [](double v) { return 1 / std::sqrt(v); });
  const auto middle = product(product(b_root, a, k), b_root, k);
  const auto middle_root =
      matrix_function(symmetric_eigen(middle, k), k, [](double v) { return std::sqrt(std::max(v, 0.0)); });
  return product(product(b_inverse_root, middle_root, k), b_inverse_root, k);
}

}  // namespace

LowRankEstimate estimate_low_rank(const Rows& draws, const Rows& gradients, double cutoff) {
  const size_t n = draws.size();
  const size_t d = n > 0 ? draws.front().size() : 0;
  LowRankEstimate estimate;
  estimate.variances.assign(d, 1.0);
  if (n < 2 || d == 0) return estimate;

  // Centre, and scale by the diagonal estimate.
  Rows x = draws, g = gradients;
  for (size_t i = 0; i < d; ++i) {
    double draw_mean = 0, gradient_mean = 0;
    for (size_t j = 0; j < n; ++j) {
      draw_mean += x[j][i];
      gradient_mean += g[j][i];
    }
    draw_mean /= static_cast<double>(n);
    gradient_mean /= static_cast<double>(n);
    double draw_squares = 0, gradient_squares = 0;
    for (size_t j = 0; j < n; ++j) {
      x[j][i] -= draw_mean;
      g[j][i] -= gradient_mean;
      draw_squares += x[j][i] * x[j][i];
      gradient_squares += g[j][i] * g[j][i];
    }
    const double variance = std::sqrt(draw_squares / gradient_squares);
    if (std::isfinite(variance) && variance > 0) {
      estimate.variances[i] = std::clamp(variance, kSmallestVariance, kLargestVariance);
    }
    const double scale = std::sqrt(estimate.variances[i]);
    for (size_t j = 0; j < n; ++j) {
      x[j][i] /= scale;
      g[j][i] *= scale;
    }
  }

  Rows basis;
  if (d <= std::min(2 * n, kMostDirections)) {
    basis.assign(d, std::vector<double>(d, 0.0));
    for (size_t i = 0; i < d; ++i) basis[i][i] = 1.0;
  } else {
    const auto recent = static_cast<std::ptrdiff_t>(n - std::min(n, kMostDirections / 2));
    Rows spanning(x.begin() + recent, x.end());
    spanning.insert(spanning.end(), g.begin() + recent, g.end());
    basis = orthonormal_basis(spanning);
  }
  const size_t k = basis.size();
  if (k == 0) return estimate;
  const auto mean = geometric_mean_with_inverse(projected_covariance(x, basis), projected_covariance(g, basis), k);
  const SymmetricEigen eigen = symmetric_eigen(mean, k);
  for (size_t e = 0; e < k; ++e) {
    const double value = eigen.values[e];
    if (!std::isfinite(value) || !(value > 0) || (value <= cutoff && value >= 1 / cutoff)) continue;
    std::vector<double> vector(d, 0.0);  // basis' * the eigenvector
    for (size_t a = 0; a < k; ++a) {
      const double weight = eigen.vectors[a * k + e];
      for (size_t i = 0; i < d; ++i) vector[i] += weight * basis[a][i];
    }
    if (!std::all_of(vector.begin(), vector.end(), [](double v) { return std::isfinite(v); })) continue;
    estimate.values.push_back(value);
    estimate.vectors.insert(estimate.vectors.end(), vector.begin(), vector.end());
  }
  return estimate;
}

}  // namespace variate
