#include "engine/mcmc/symmetric_eigen.h"

#include <cmath>

namespace variate {

SymmetricEigen symmetric_eigen(std::vector<double> a, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < i; ++j) a[i * n + j] = a[j * n + i];
  }
  std::vector<double> v(n * n, 0.0);
  for (size_t i = 0; i < n; ++i) v[i * n + i] = 1.0;
  constexpr int kMostSweeps = 60;  // cyclic Jacobi converges quadratically: ~10 suffice
  for (int sweep = 0; sweep < kMostSweeps; ++sweep) {
    double off = 0, total = 0;
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) {
        total += a[i * n + j] * a[i * n + j];
        if (i != j) off += a[i * n + j] * a[i * n + j];
      }
    }
    if (!(off > 1e-30 * total)) break;  // also ends on a NaN
    for (size_t p = 0; p + 1 < n; ++p) {
      for (size_t q = p + 1; q < n; ++q) {
        const double apq = a[p * n + q];
        if (apq == 0) continue;
        // The rotation that zeroes a[p][q]: t = tan(angle), the smaller root.
        const double theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1);
        const double s = t * c;
        for (size_t k = 0; k < n; ++k) {  // columns p and q: A J
          const double akp = a[k * n + p], akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (size_t k = 0; k < n; ++k) {  // rows p and q: J' (A J)
          const double apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (size_t k = 0; k < n; ++k) {
          const double vkp = v[k * n + p], vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  SymmetricEigen eigen;
  eigen.values.resize(n);
  for (size_t i = 0; i < n; ++i) eigen.values[i] = a[i * n + i];
  eigen.vectors = std::move(v);
  return eigen;
}

}  // namespace variate
