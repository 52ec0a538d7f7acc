#include "engine/bijectors/simplex.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"

namespace variate::bijectors {
namespace {

// The stick-breaking quantities in log space, vectorized over the batch: the stick left
// before step k is prod_{j<k} (1 - z_j), so log(stick) is an exclusive cumulative sum of
// log(1 - z_j). Products in log space keep tiny pieces (and x_K) accurate to relative
// precision, where 1 - sum_{j<k} x_j would cancel.
struct Sticks {
  at::Tensor log_z;          // [..., K-1]
  at::Tensor log1m_z;        // [..., K-1]
  at::Tensor log_stick;      // [..., K-1], stick before each break
  at::Tensor log_remainder;  // [..., 1], the last stick, log x_K
};

Sticks break_sticks(const at::Tensor& y) {
  check_min_rank("Simplex", "y", y, 1);
  const int64_t n = y.size(-1);  // K - 1
  // log(K - k) for k = 1..K-1 centres y = 0 on the uniform simplex.
  const at::Tensor offsets = at::arange(n, 0, -1, y.options()).log();
  const at::Tensor u = y - offsets;
  Sticks s;
  s.log_z = at::log_sigmoid(u);
  s.log1m_z = at::log_sigmoid(-u);
  const at::Tensor through = s.log1m_z.cumsum(-1);  // log stick after each break
  s.log_stick = at::cat({at::zeros_like(y.slice(-1, 0, 1)), through.slice(-1, 0, -1)}, -1);
  s.log_remainder = s.log1m_z.sum(-1, /*keepdim=*/true);
  return s;
}

}  // namespace

at::Tensor Simplex::forward(const at::Tensor& y) const {
  const Sticks s = break_sticks(y);
  return at::exp(at::cat({s.log_stick + s.log_z, s.log_remainder}, -1));
}

at::Tensor Simplex::inverse(const at::Tensor& x) const {
  check_min_rank("Simplex", "x", x, 1);
  if (x.size(-1) == 0) {
    throw ArgumentError("Simplex: argument 'x' must have at least one entry in its last "
                        "dimension, got shape " + c10::str(x.sizes()));
  }
  check_simplex("Simplex", "x", x);
  const int64_t n = x.size(-1) - 1;
  // z_k = x_k / stick_k, so logit(z_k) = log x_k - log(stick_k - x_k), and stick_k - x_k is
  // the sum of the later entries: a reversed cumulative sum of non-negative terms, without
  // the cancellation of 1 - sum_{j<=k} x_j.
  const at::Tensor later = x.slice(-1, 1).flip({-1}).cumsum(-1).flip({-1});
  const at::Tensor offsets = at::arange(n, 0, -1, x.options()).log();
  return at::log(x.slice(-1, 0, n)) - at::log(later) + offsets;
}

at::Tensor Simplex::forward_log_det_jacobian(const at::Tensor& y) const {
  const Sticks s = break_sticks(y);
  return (s.log_stick + s.log_z + s.log1m_z).sum(-1);
}

Shape Simplex::unconstrained_shape(const Shape& constrained) const {
  if (constrained.empty() || constrained.back() < 1) {
    throw ArgumentError("Simplex: a constrained shape must have a last dimension of at least "
                        "1, got " + to_string(constrained));
  }
  Shape shape = constrained;
  shape.back() -= 1;
  return shape;
}

}  // namespace variate::bijectors
