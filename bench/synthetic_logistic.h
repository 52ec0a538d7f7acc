#pragma once
/// A synthetic, covertype-sized Bayesian logistic regression data set, reproducible from a
/// seed: X = [1, Z] with Z standard normal (N x 54), beta_true ~ Normal(0, 0.5) (standard
/// deviation 0.5), y ~ Bernoulli(logits = X beta_true).

#include <cstdint>

#include <ATen/core/Tensor.h>

namespace variate::bench {

struct LogisticData {
  /// X stored column-major: x_columns is [D, N] contiguous, so X = x_columns.t() is an
  /// [N, D] view whose columns are contiguous (R's and Fortran's layout).
  at::Tensor x_columns;
  at::Tensor y;          // [N] int64, 0 or 1
  at::Tensor beta_true;  // [D] float64

  int64_t rows() const;
  int64_t columns() const;
  /// The [N, D] design matrix in `dtype`: a view of x_columns, or, with row_major, a
  /// contiguous row-major copy.
  at::Tensor design(at::ScalarType dtype, bool row_major) const;
};

/// @throws ArgumentError unless rows >= 1 and columns >= 1.
LogisticData make_synthetic_logistic(int64_t rows, int64_t columns, uint64_t seed);

}  // namespace variate::bench
