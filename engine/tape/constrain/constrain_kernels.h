#pragma once
/// The emitters behind emit_constrain, one per bijector, and the scalar functions their
/// kernels share. Each emitter appends the transform's op and then its log-Jacobian sink
/// (marked `jacobian`), so that the sink may read what the op left in its scratch slot.
///
/// `y` is the unconstrained slot already viewed in the bijector's unconstrained shape.

#include <algorithm>
#include <cmath>

#include <ATen/core/Tensor.h>

#include "engine/tape/program/builder.h"

namespace variate::tape {

/// The log-Jacobian sink of a transform `op` (appended just before it): the same operands,
/// `forward` adding the term, skipped when the density is wanted without the Jacobian.
inline Instruction jacobian_sink(const Instruction& op, Kernel forward, const char* name) {
  Instruction sink = op;
  sink.forward = forward;
  sink.backward = nullptr;
  sink.sink = true;
  sink.jacobian = true;
  sink.name = name;
  sink.out = -1;
  return sink;
}

// Elementwise (elementwise_constrain_ops.cpp); bounds broadcast to y's shape.
Slot emit_lower_bound(ProgramBuilder& builder, const at::Tensor& lower, const Slot& y);
Slot emit_upper_bound(ProgramBuilder& builder, const at::Tensor& upper, const Slot& y);
Slot emit_interval(ProgramBuilder& builder, const at::Tensor& lower, const at::Tensor& upper,
                   const Slot& y);

// Along the last axis, row by row (vector_constrain_ops.cpp).
Slot emit_ordered(ProgramBuilder& builder, const Slot& y);
Slot emit_positive_ordered(ProgramBuilder& builder, const Slot& y);
Slot emit_simplex(ProgramBuilder& builder, const Slot& y, const Shape& constrained_shape);

// Rows of the strictly lower triangle to K x K factors (cholesky_corr_constrain_ops.cpp).
Slot emit_cholesky_corr(ProgramBuilder& builder, const Slot& y, const Shape& constrained_shape);

/// log_sigmoid at x and at -x with its slopes there, as LibTorch 1.13 computes them on the
/// CPU: log_sigmoid(x) = min(x, 0) - log1p(b) with b = exp(-|x|) (which x and -x share),
/// and its derivative 1 - b / (1 + b) below 0, b / (1 + b) from 0 up (-0 counts as 0).
struct LogSigmoids {
  double at_x;
  double at_minus_x;
  double slope_at_x;        // log_sigmoid'(x)
  double slope_at_minus_x;  // log_sigmoid'(-x), so d log_sigmoid(-x) / dx is its negative
};

inline LogSigmoids log_sigmoids(double x) {
  const double b = std::exp(-std::abs(x));
  const double log1p_b = std::log1p(b);
  const double r = b / (1 + b);
  return {std::min(x, 0.0) - log1p_b, std::min(-x, 0.0) - log1p_b, x < 0 ? 1 - r : r,
          -x < 0 ? 1 - r : r};
}

/// 1 / (1 + exp(-x)), LibTorch's sigmoid.
inline double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

}  // namespace variate::tape
