// The elementwise bijectors (engine/bijectors/lower_bound, upper_bound, interval), formula
// for formula, with their log-Jacobians as sinks.
//
// Operands: in[0] y; in[1] a scratch slot of n values the forward fills for the backward
// (exp(y), or the interval's sigmoid); from in[2] the bounds, one value each (stride 0) or
// broadcast to y (stride 1), a template argument.

#include <algorithm>
#include <cmath>
#include <optional>

#include <ATen/ATen.h>

#include "engine/tape/constrain/constrain_kernels.h"
#include "engine/tape/constrain/constrain_ops.h"
#include "engine/tape/densities/argument_checks.h"

namespace variate::tape {
namespace {

// x = exp(y): a lower bound of 0, where lower + exp(y) is exp(y) exactly.
void exp_forward(const Instruction& op, Sweep& s) {
  const double* y = s.values + op.in[0];
  double* x = s.values + op.out;
  for (int64_t i = 0; i < op.n; ++i) x[i] = std::exp(y[i]);
}

void exp_backward(const Instruction& op, Sweep& s) {
  const double* x = s.values + op.out;
  const double* ax = s.adjoints + op.out;
  double* ay = s.adjoints + op.in[0];
  for (int64_t i = 0; i < op.n; ++i) ay[i] += ax[i] * x[i];
}

// x = lower + exp(y), or upper - exp(y).
template <int64_t kBoundStride, bool kUpper>
void shifted_exp_forward(const Instruction& op, Sweep& s) {
  const double* y = s.values + op.in[0];
  double* e = s.values + op.in[1];
  const double* bound = s.values + op.in[2];
  double* x = s.values + op.out;
  for (int64_t i = 0; i < op.n; ++i) {
    e[i] = std::exp(y[i]);
    x[i] = kUpper ? bound[i * kBoundStride] - e[i] : bound[i * kBoundStride] + e[i];
  }
}

template <bool kUpper>
void shifted_exp_backward(const Instruction& op, Sweep& s) {
  const double* e = s.values + op.in[1];
  const double* ax = s.adjoints + op.out;
  double* ay = s.adjoints + op.in[0];
  for (int64_t i = 0; i < op.n; ++i) {
    if (kUpper) {
      ay[i] -= ax[i] * e[i];
    } else {
      ay[i] += ax[i] * e[i];
    }
  }
}

// log|det J| = sum(y), for exp and both shifted exps.
void sum_log_jacobian(const Instruction& op, Sweep& s) {
  const double* y = s.values + op.in[0];
  double* ay = s.adjoints + op.in[0];
  double total = 0;
  for (int64_t i = 0; i < op.n; ++i) {
    total += y[i];
    ay[i] += 1;
  }
  s.lp += total;
}

// Measured from the nearer bound with s = sigmoid(-|y|), as Interval::forward. Operands
// from in[2]: lower, upper, upper - lower.
template <int64_t kBoundStride>
void interval_forward(const Instruction& op, Sweep& s) {
  const double* y = s.values + op.in[0];
  double* sig = s.values + op.in[1];
  const double* lower = s.values + op.in[2];
  const double* upper = s.values + op.in[3];
  const double* width = s.values + op.in[4];
  double* x = s.values + op.out;
  for (int64_t i = 0; i < op.n; ++i) {
    const bool positive = y[i] > 0;
    sig[i] = sigmoid(positive ? -y[i] : y[i]);
    const double step = width[i * kBoundStride] * sig[i];
    x[i] = positive ? upper[i * kBoundStride] - step : lower[i * kBoundStride] + step;
  }
}

// dx/dy = width * s (1 - s) on either side (the signs of -|y| and of the step cancel).
template <int64_t kBoundStride>
void interval_backward(const Instruction& op, Sweep& s) {
  const double* sig = s.values + op.in[1];
  const double* width = s.values + op.in[4];
  const double* ax = s.adjoints + op.out;
  double* ay = s.adjoints + op.in[0];
  for (int64_t i = 0; i < op.n; ++i) {
    ay[i] += ax[i] * width[i * kBoundStride] * (1 - sig[i]) * sig[i];
  }
}

// log(upper - lower) + log_sigmoid(y) + log_sigmoid(-y); in[1] holds log(upper - lower).
template <int64_t kBoundStride>
void interval_log_jacobian(const Instruction& op, Sweep& s) {
  const double* y = s.values + op.in[0];
  const double* log_width = s.values + op.in[1];
  double* ay = s.adjoints + op.in[0];
  double total = 0;
  for (int64_t i = 0; i < op.n; ++i) {
    const LogSigmoids ls = log_sigmoids(y[i]);
    total += log_width[i * kBoundStride] + ls.at_x + ls.at_minus_x;
    ay[i] += ls.slope_at_x - ls.slope_at_minus_x;
  }
  s.lp += total;
}

// Bounds computed at each point (slots that may depend on parameters), read with the
// stride each has and given adjoints where they vary. x = lower + exp(y) or upper - exp(y):
// dx/dbound = 1.
template <bool kUpper>
void shifted_exp_at_point_backward(const Instruction& op, Sweep& s) {
  shifted_exp_backward<kUpper>(op, s);
  if (!op.varying[2]) return;
  const double* ax = s.adjoints + op.out;
  double* abound = s.adjoints + op.in[2];
  for (int64_t i = 0; i < op.n; ++i) abound[i * op.stride[2]] += ax[i];
}

// As interval_forward, with the width taken here. Operands: in[0] y, in[1] the sigmoid's
// scratch, in[2] lower, in[3] upper.
void interval_at_point_forward(const Instruction& op, Sweep& s) {
  const double* y = s.values + op.in[0];
  double* sig = s.values + op.in[1];
  const double* lower = s.values + op.in[2];
  const double* upper = s.values + op.in[3];
  double* x = s.values + op.out;
  for (int64_t i = 0; i < op.n; ++i) {
    const double lo = lower[i * op.stride[2]];
    const double hi = upper[i * op.stride[3]];
    const double width = hi - lo;
    const bool positive = y[i] > 0;
    sig[i] = sigmoid(positive ? -y[i] : y[i]);
    x[i] = positive ? hi - width * sig[i] : lo + width * sig[i];
  }
}

// From the nearer bound: dx/d(that bound) = 1 - s, dx/d(the other) = s.
void interval_at_point_backward(const Instruction& op, Sweep& s) {
  const double* y = s.values + op.in[0];
  const double* sig = s.values + op.in[1];
  const double* lower = s.values + op.in[2];
  const double* upper = s.values + op.in[3];
  const double* ax = s.adjoints + op.out;
  double* ay = s.adjoints + op.in[0];
  double* alower = s.adjoints + op.in[2];
  double* aupper = s.adjoints + op.in[3];
  for (int64_t i = 0; i < op.n; ++i) {
    const double width = upper[i * op.stride[3]] - lower[i * op.stride[2]];
    ay[i] += ax[i] * width * (1 - sig[i]) * sig[i];
    const double near = 1 - sig[i];
    const double far = sig[i];
    const bool positive = y[i] > 0;
    if (op.varying[2]) alower[i * op.stride[2]] += ax[i] * (positive ? far : near);
    if (op.varying[3]) aupper[i * op.stride[3]] += ax[i] * (positive ? near : far);
  }
}

// log(upper - lower) + log_sigmoid(y) + log_sigmoid(-y), with the width's partials.
void interval_at_point_log_jacobian(const Instruction& op, Sweep& s) {
  const double* y = s.values + op.in[0];
  const double* lower = s.values + op.in[2];
  const double* upper = s.values + op.in[3];
  double* ay = s.adjoints + op.in[0];
  double* alower = s.adjoints + op.in[2];
  double* aupper = s.adjoints + op.in[3];
  double total = 0;
  for (int64_t i = 0; i < op.n; ++i) {
    const double width = upper[i * op.stride[3]] - lower[i * op.stride[2]];
    const LogSigmoids ls = log_sigmoids(y[i]);
    total += std::log(width) + ls.at_x + ls.at_minus_x;
    ay[i] += ls.slope_at_x - ls.slope_at_minus_x;
    if (op.varying[2]) alower[i * op.stride[2]] -= 1 / width;
    if (op.varying[3]) aupper[i * op.stride[3]] += 1 / width;
  }
  s.lp += total;
}

// A bound as the bijector holds it: integers become float64, floating types stay (so that
// upper - lower rounds as it does there).
at::Tensor floating(const at::Tensor& bound) {
  return bound.is_floating_point() ? bound : bound.to(at::kDouble);
}

// Whether every bound is one value, read with stride 0; otherwise all are broadcast to
// the value's shape (emit_constrain has checked that they broadcast to it).
bool single_values(const std::vector<at::Tensor>& bounds) {
  return std::all_of(bounds.begin(), bounds.end(),
                     [](const at::Tensor& bound) { return bound.numel() == 1; });
}

// Data: the values of `bound` (any floating type, exact in float64), one or broadcast.
Slot bound_slot(ProgramBuilder& builder, const at::Tensor& bound, bool single, const Shape& shape) {
  const at::Tensor values = single ? bound.reshape({1}) : bound.expand(shape);
  const at::Tensor flat = values.to(at::kDouble).contiguous().reshape({-1});
  const double* data = flat.data_ptr<double>();
  return builder.constant(single ? Shape{} : shape, std::vector<double>(data, data + flat.numel()));
}

Instruction unary_op(const char* name, const Slot& x, const Slot& y) {
  Instruction op;
  op.name = name;
  op.out = x.offset;
  op.n = x.size;
  op.in[0] = y.offset;
  op.varying[0] = true;
  return op;
}

void append_sum_log_jacobian(ProgramBuilder& builder, const char* name, const Slot& y) {
  Instruction sink;
  sink.forward = sum_log_jacobian;
  sink.sink = true;
  sink.jacobian = true;
  sink.name = name;
  sink.n = y.size;
  sink.in[0] = y.offset;
  sink.varying[0] = true;
  builder.append(sink);
}

Slot emit_shifted_exp(ProgramBuilder& builder, const at::Tensor& bound, const Slot& y, bool upper) {
  const bool single = single_values({bound});
  const Slot x = builder.varying(y.shape);
  Instruction op = unary_op(upper ? "upper_bound" : "lower_bound", x, y);
  op.forward = upper ? (single ? shifted_exp_forward<0, true> : shifted_exp_forward<1, true>)
                     : (single ? shifted_exp_forward<0, false> : shifted_exp_forward<1, false>);
  op.backward = upper ? shifted_exp_backward<true> : shifted_exp_backward<false>;
  op.in[1] = builder.varying(y.shape).offset;
  op.in[2] = bound_slot(builder, floating(bound), single, y.shape).offset;
  op.stride[2] = single ? 0 : 1;
  builder.append(op);
  append_sum_log_jacobian(builder, upper ? "upper_bound_log_jacobian" : "lower_bound_log_jacobian",
                          y);
  return x;
}

// A bound slot read by an op over y's n elements.
void set_bound(Instruction& op, size_t k, const Slot& bound) {
  op.in[k] = bound.offset;
  op.stride[k] = bound.size == 1 ? 0 : 1;
  op.varying[k] = bound.varying;
}

}  // namespace

Slot emit_bounds_at_point(ProgramBuilder& builder, const std::optional<Slot>& lower,
                          const std::optional<Slot>& upper, const Slot& y) {
  // Bounds that are not finite or cross reject the point, as the LibTorch path's checked
  // bijector does.
  for (const auto& bound : {lower, upper}) {
    if (bound) emit_finite_check(builder, *bound);
  }
  if (lower && upper) emit_less_check(builder, *lower, *upper);
  const Slot x = builder.varying(y.shape);
  if (lower && upper) {
    Instruction op = unary_op("interval_at_point", x, y);
    op.forward = interval_at_point_forward;
    op.backward = interval_at_point_backward;
    op.in[1] = builder.varying(y.shape).offset;
    set_bound(op, 2, *lower);
    set_bound(op, 3, *upper);
    builder.append(op);
    builder.append(jacobian_sink(op, interval_at_point_log_jacobian, "interval_at_point_log_jacobian"));
    return x;
  }
  const bool is_upper = !lower;
  const bool single = (is_upper ? *upper : *lower).size == 1;
  Instruction op = unary_op(is_upper ? "upper_bound_at_point" : "lower_bound_at_point", x, y);
  op.forward = is_upper ? (single ? shifted_exp_forward<0, true> : shifted_exp_forward<1, true>)
                        : (single ? shifted_exp_forward<0, false> : shifted_exp_forward<1, false>);
  op.backward = is_upper ? shifted_exp_at_point_backward<true> : shifted_exp_at_point_backward<false>;
  op.in[1] = builder.varying(y.shape).offset;
  set_bound(op, 2, is_upper ? *upper : *lower);
  builder.append(op);
  append_sum_log_jacobian(builder, is_upper ? "upper_bound_log_jacobian" : "lower_bound_log_jacobian", y);
  return x;
}

Slot emit_lower_bound(ProgramBuilder& builder, const at::Tensor& lower, const Slot& y) {
  if (!at::all(lower == 0).item<bool>()) return emit_shifted_exp(builder, lower, y, false);
  const Slot x = builder.varying(y.shape);
  Instruction op = unary_op("exp", x, y);
  op.forward = exp_forward;
  op.backward = exp_backward;
  builder.append(op);
  append_sum_log_jacobian(builder, "exp_log_jacobian", y);
  return x;
}

Slot emit_upper_bound(ProgramBuilder& builder, const at::Tensor& upper, const Slot& y) {
  return emit_shifted_exp(builder, upper, y, true);
}

Slot emit_interval(ProgramBuilder& builder, const at::Tensor& lower, const at::Tensor& upper,
                   const Slot& y) {
  const at::Tensor lo = floating(lower);
  const at::Tensor hi = floating(upper);
  const bool single = single_values({lo, hi});
  // upper - lower and its log as Interval computes them, on the bounds' own shapes.
  const at::Tensor width = hi - lo;
  const at::Tensor log_width = at::log(width);

  const Slot x = builder.varying(y.shape);
  Instruction op = unary_op("interval", x, y);
  op.forward = single ? interval_forward<0> : interval_forward<1>;
  op.backward = single ? interval_backward<0> : interval_backward<1>;
  op.in[1] = builder.varying(y.shape).offset;
  op.in[2] = bound_slot(builder, lo, single, y.shape).offset;
  op.in[3] = bound_slot(builder, hi, single, y.shape).offset;
  op.in[4] = bound_slot(builder, width, single, y.shape).offset;
  for (size_t k = 2; k <= 4; ++k) op.stride[k] = single ? 0 : 1;
  builder.append(op);

  Instruction sink;
  sink.forward = single ? interval_log_jacobian<0> : interval_log_jacobian<1>;
  sink.sink = true;
  sink.jacobian = true;
  sink.name = "interval_log_jacobian";
  sink.n = y.size;
  sink.in[0] = y.offset;
  sink.varying[0] = true;
  sink.in[1] = bound_slot(builder, log_width, single, y.shape).offset;
  sink.stride[1] = single ? 0 : 1;
  builder.append(sink);
  return x;
}

}  // namespace variate::tape
