#include "engine/ode/dense_lu.h"

#include <cmath>
#include <utility>

namespace variate::ode {

bool lu_factor(std::vector<double>& a, std::vector<int64_t>& pivot, int64_t n) {
  pivot.resize(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    int64_t best = k;
    for (int64_t i = k + 1; i < n; ++i) {
      if (std::abs(a[i * n + k]) > std::abs(a[best * n + k])) best = i;
    }
    pivot[k] = best;
    if (a[best * n + k] == 0 || !std::isfinite(a[best * n + k])) return false;
    if (best != k) {
      for (int64_t j = 0; j < n; ++j) std::swap(a[k * n + j], a[best * n + j]);
    }
    for (int64_t i = k + 1; i < n; ++i) {
      const double factor = a[i * n + k] /= a[k * n + k];
      for (int64_t j = k + 1; j < n; ++j) a[i * n + j] -= factor * a[k * n + j];
    }
  }
  return true;
}

void lu_solve(const std::vector<double>& lu, const std::vector<int64_t>& pivot, int64_t n, double* b, int64_t m) {
  for (int64_t k = 0; k < n; ++k) {
    if (pivot[k] != k) {
      for (int64_t j = 0; j < m; ++j) std::swap(b[k * m + j], b[pivot[k] * m + j]);
    }
    for (int64_t i = k + 1; i < n; ++i) {
      const double factor = lu[i * n + k];
      if (factor == 0) continue;
      for (int64_t j = 0; j < m; ++j) b[i * m + j] -= factor * b[k * m + j];
    }
  }
  for (int64_t k = n - 1; k >= 0; --k) {
    for (int64_t j = 0; j < m; ++j) {
      double sum = b[k * m + j];
      for (int64_t i = k + 1; i < n; ++i) sum -= lu[k * n + i] * b[i * m + j];
      b[k * m + j] = sum / lu[k * n + k];
    }
  }
}

}  // namespace variate::ode
