#pragma once
/// The eigen-decomposition of a symmetric matrix by cyclic Jacobi rotations (Golub & Van
/// Loan, Matrix Computations, Sec. 8.5): accurate to rounding, and quick enough for the
/// matrices of tens to a few hundred rows that the low-rank metric decomposes.

#include <cstddef>
#include <vector>

namespace variate {

struct SymmetricEigen {
  std::vector<double> values;   ///< n, in no particular order
  std::vector<double> vectors;  ///< n x n row-major: column j is the unit eigenvector of values[j]
};

/// `matrix`: n x n row-major, symmetric (only its upper triangle is read).
SymmetricEigen symmetric_eigen(std::vector<double> matrix, size_t n);

/// V f(values) V': a function of a symmetric matrix applied through its eigen-decomposition
/// (its square root, its inverse square root).
template <typename F>
std::vector<double> matrix_function(const SymmetricEigen& eigen, size_t n, F f) {
  std::vector<double> out(n * n, 0.0);
  for (size_t k = 0; k < n; ++k) {
    const double value = f(eigen.values[k]);
    for (size_t i = 0; i < n; ++i) {
      const double left = eigen.vectors[i * n + k] * value;
      for (size_t j = 0; j < n; ++j) out[i * n + j] += left * eigen.vectors[j * n + k];
    }
  }
  return out;
}

}  // namespace variate
