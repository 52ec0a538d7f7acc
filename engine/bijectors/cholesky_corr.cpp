#include "engine/bijectors/cholesky_corr.h"

#include <cmath>

#include <ATen/ATen.h>

#include "engine/core/checks.h"

namespace variate::bijectors {
namespace {

constexpr double kLog2 = 0.69314718055994530942;

// K with K(K-1)/2 == m (K = 1 for m = 0).
int64_t matrix_size(const at::Tensor& y) {
  check_min_rank("CholeskyCorr", "y", y, 1);
  const int64_t m = y.size(-1);
  const auto k = static_cast<int64_t>(std::llround((1 + std::sqrt(1.0 + 8.0 * m)) / 2));
  if (k * (k - 1) / 2 != m) {
    throw ArgumentError("CholeskyCorr: argument 'y' must have a last dimension K(K-1)/2 for "
                        "some K, got shape " + c10::str(y.sizes()));
  }
  return k;
}

// Flat positions i * K + j of the strictly lower triangle, row by row (Stan's order).
at::Tensor lower_positions(int64_t k, const at::Device& device) {
  const at::Tensor rows_columns =
      at::tril_indices(k, k, -1, at::TensorOptions().dtype(at::kLong).device(device));
  return rows_columns[0] * k + rows_columns[1];
}

// The entries as K x K matrices with zeros outside the strictly lower triangle.
at::Tensor scatter_lower(const at::Tensor& entries, const at::Tensor& positions, int64_t k) {
  Shape shape = entries.sizes().vec();
  shape.back() = k * k;
  return at::zeros(shape, entries.options())
      .index_copy(-1, positions, entries)
      .unflatten(-1, {k, k});
}

struct Rows {
  at::Tensor z;          // [..., K, K], tanh(y) in the strictly lower triangle
  at::Tensor log1m_z2;   // [..., M], log(1 - z^2)
  at::Tensor log_left;   // [..., K, K], log(1 - sum_{l<j} L(i,l)^2) at (i, j)
};

Rows build_rows(const at::Tensor& y, int64_t k, const at::Tensor& positions) {
  const at::Tensor a = at::abs(y);
  const at::Tensor near_zero = a < 0.5;
  // tanh and log(1 - tanh^2) written so that they and their autograd derivatives keep
  // relative precision as |y| grows: tanh|y| = 1 - 2 s and 1 - tanh^2 = 4 s (1 - s) with
  // s = inv_logit(-2|y|) small, where at::tanh's derivative 1 - tanh^2 would cancel (and
  // reach 0 for |y| > 19). Near 0, tanh and log1p are the accurate forms (and abs has no
  // useful derivative at 0).
  // Each branch gets inputs where it is finite, so that the zero gradient where() sends
  // to the branch it did not take stays zero (0 * inf would be NaN).
  const at::Tensor near_z = at::tanh(at::where(near_zero, y, at::zeros_like(y)));
  const at::Tensor s = at::sigmoid(-2 * a);
  const at::Tensor z = at::where(near_zero, near_z, at::where(y > 0, 1 - 2 * s, 2 * s - 1));
  Rows rows;
  rows.log1m_z2 = at::where(near_zero, at::log1p(-near_z * near_z),
                            2 * (kLog2 - a + at::log_sigmoid(2 * a)));
  rows.z = scatter_lower(z, positions, k);
  // 1 - sum_{l<j} L(i,l)^2 = prod_{l<j} (1 - z_il^2): an exclusive cumulative sum in log
  // space along each row.
  const at::Tensor w = scatter_lower(rows.log1m_z2, positions, k);
  rows.log_left = at::constant_pad_nd(w.slice(-1, 0, k - 1).cumsum(-1), {1, 0});
  return rows;
}

}  // namespace

at::Tensor CholeskyCorr::forward(const at::Tensor& y) const {
  const int64_t k = matrix_size(y);
  const Rows rows = build_rows(y, k, lower_positions(k, y.device()));
  // Off the diagonal z_ij sqrt(left); on it sqrt(left at (i, i)), the rest of the row.
  const at::Tensor eye = at::eye(k, y.options());
  return (rows.z + eye) * at::exp(0.5 * rows.log_left);
}

at::Tensor CholeskyCorr::inverse(const at::Tensor& x) const {
  check_cholesky_factor("CholeskyCorr", "x", x);
  const at::Tensor squares = x.square();
  if (validation_enabled()) {
    const at::Tensor lengths = squares.sum(-1);
    throw_if_any("CholeskyCorr", "x", lengths, at::abs(lengths - 1) > 1e-8,
                 "a Cholesky factor of a correlation matrix (rows of unit length); a row's "
                 "squared length is");
  }
  const int64_t k = x.size(-1);
  const at::Tensor positions = lower_positions(k, x.device());
  // left(i, j) = 1 - sum_{l<j} L(i,l)^2 = sum_{l>=j} L(i,l)^2 for a unit row; the second
  // form sums non-negative terms and keeps its relative precision when left is tiny.
  const at::Tensor left = squares.flip({-1}).cumsum(-1).flip({-1}).flatten(-2);
  const at::Tensor l = x.flatten(-2).index_select(-1, positions);
  const at::Tensor left_here = left.index_select(-1, positions);
  const at::Tensor left_next = left.index_select(-1, positions + 1);  // (i, j+1), j < i
  const at::Tensor z = l / at::sqrt(left_here);
  // atanh(z) = sign(z) (log1p|z| - log(1 - z^2) / 2) with 1 - z^2 = left_next / left_here,
  // which stays accurate as |z| -> 1, where atanh(z) would need 1 - |z| from z itself.
  const at::Tensor far =
      at::sign(z) * (at::log1p(at::abs(z)) - 0.5 * (at::log(left_next) - at::log(left_here)));
  return at::where(at::abs(z) < 0.5, at::atanh(z), far);
}

at::Tensor CholeskyCorr::forward_log_det_jacobian(const at::Tensor& y) const {
  const int64_t k = matrix_size(y);
  const at::Tensor positions = lower_positions(k, y.device());
  const Rows rows = build_rows(y, k, positions);
  // log_left is 0 in column 0, so the sum over the strictly lower triangle is over j >= 1.
  const at::Tensor log_left = rows.log_left.flatten(-2).index_select(-1, positions);
  return rows.log1m_z2.sum(-1) + 0.5 * log_left.sum(-1);
}

Shape CholeskyCorr::unconstrained_shape(const Shape& constrained) const {
  const size_t rank = constrained.size();
  if (rank < 2 || constrained[rank - 1] != constrained[rank - 2] || constrained.back() < 1) {
    throw ArgumentError("CholeskyCorr: a constrained shape must end in K x K with K >= 1, got " +
                        to_string(constrained));
  }
  const int64_t k = constrained.back();
  Shape shape(constrained.begin(), constrained.end() - 1);
  shape.back() = k * (k - 1) / 2;
  return shape;
}

}  // namespace variate::bijectors
