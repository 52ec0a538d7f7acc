#pragma once
/// Checks the bijector suites share: autograd Jacobians and their log-determinants,
/// closeness under a per-element tolerance, and batched calls against one call per element.
/// Header-only so that it needs no build change; it includes no Qt.

#include <cmath>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <tuple>

#include <ATen/ATen.h>

#include "engine/bijectors/bijector.h"

namespace variate::testing {

constexpr double kEps = std::numeric_limits<double>::epsilon();

/// d f(y) / d y at a 1-D float64 point, as [outputs, inputs], by autograd: one backward
/// pass per output coordinate (ATen has no functional jacobian).
inline at::Tensor autograd_jacobian(const std::function<at::Tensor(const at::Tensor&)>& f,
                                    const at::Tensor& y) {
  at::Tensor point = y.detach().clone().requires_grad_(true);
  const at::Tensor out = f(point).reshape(-1);
  at::Tensor jacobian = at::zeros({out.numel(), point.numel()}, y.options());
  for (int64_t i = 0; i < out.numel(); ++i) {
    if (point.grad().defined()) point.mutable_grad().zero_();
    out[i].backward({}, /*retain_graph=*/true);
    if (point.grad().defined()) jacobian[i] = point.grad().detach();
  }
  return jacobian;
}

/// log |det J| by LU (at::linalg_slogdet).
inline double log_abs_det(const at::Tensor& jacobian) {
  return std::get<1>(at::linalg_slogdet(jacobian)).item<double>();
}

/// Empty when |got - expected| <= tolerance everywhere (tolerance broadcasts; NaN fails);
/// otherwise a message naming the worst element relative to its tolerance.
inline std::string compare_close(const at::Tensor& got, const at::Tensor& expected,
                                 const at::Tensor& tolerance, const std::string& what) {
  if (got.sizes() != expected.sizes()) {
    return what + ": shape " + c10::str(got.sizes()) + ", expected " +
           c10::str(expected.sizes());
  }
  const at::Tensor g = got.detach().to(at::kDouble).reshape(-1);
  const at::Tensor e = expected.detach().to(at::kDouble).reshape(-1);
  const at::Tensor t = tolerance.detach().to(at::kDouble).expand(expected.sizes()).reshape(-1);
  const at::Tensor equal = (g == e);  // exact matches pass, infinities included
  const at::Tensor ratio = at::where(equal, at::zeros_like(g), (g - e).abs() / t);
  const at::Tensor bad = ~equal & ~(ratio <= 1);
  if (!bad.any().item<bool>()) return {};
  const int64_t worst = at::where(bad, at::nan_to_num(ratio, 1e300), at::zeros_like(ratio))
                            .argmax().item<int64_t>();
  std::ostringstream out;
  out.precision(17);
  out << what << ": element " << worst << " is " << g[worst].item<double>() << ", expected "
      << e[worst].item<double>() << " within " << t[worst].item<double>();
  return out.str();
}

inline std::string compare_close(const at::Tensor& got, const at::Tensor& expected,
                                 double tolerance, const std::string& what) {
  return compare_close(got, expected, at::scalar_tensor(tolerance, at::kDouble), what);
}

/// forward_log_det_jacobian(y) against log|det| of the autograd Jacobian of
/// `square(forward(y))`, where `square` picks as many constrained coordinates as y has
/// (all of them for the elementwise and ordered bijectors). y is one event (1-D); for an
/// elementwise bijector it may be any shape, and the Jacobian is diagonal with log|det| the
/// sum of forward_log_det_jacobian. Tolerance: `relative` * (1 + |reference|).
inline std::string check_log_det(const bijectors::Bijector& bijector, const at::Tensor& y,
                                 const std::function<at::Tensor(const at::Tensor&)>& square,
                                 double relative) {
  const at::Tensor jacobian = autograd_jacobian(
      [&](const at::Tensor& p) { return square(bijector.forward(p.view(y.sizes()))); },
      y.reshape(-1));
  if (jacobian.size(0) != jacobian.size(1)) {
    return "Jacobian is not square: " + c10::str(jacobian.sizes());
  }
  const double reference = log_abs_det(jacobian);
  const double got = bijector.forward_log_det_jacobian(y).sum().item<double>();
  const double allowed = relative * (1 + std::abs(reference));
  if (std::abs(got - reference) <= allowed) return {};
  std::ostringstream out;
  out.precision(17);
  out << bijector.name() << ": forward_log_det_jacobian " << got << ", autograd log|det J| "
      << reference << " (difference " << got - reference << ", allowed " << allowed << ")";
  return out.str();
}

/// forward, inverse and forward_log_det_jacobian on y with leading batch dimensions against
/// one call per batch element. Vectorized kernels may round differently from one element
/// at a time, so agreement is to `relative` * (1 + |value|), not bitwise.
inline std::string check_batch_matches_singles(const bijectors::Bijector& bijector,
                                               const at::Tensor& y, double relative = 1e-14) {
  const int64_t batch_rank = y.dim() - bijector.unconstrained_event_rank();
  const auto batch = y.sizes().slice(0, batch_rank);
  const at::Tensor x = bijector.forward(y);
  const at::Tensor log_det = bijector.forward_log_det_jacobian(y);
  const at::Tensor y_back = bijector.inverse(x);
  if (!log_det.sizes().equals(batch)) {
    return "forward_log_det_jacobian has shape " + c10::str(log_det.sizes()) +
           ", expected the batch shape " + c10::str(batch);
  }
  Shape y_flat{-1}, x_flat{-1};
  for (int64_t d = batch_rank; d < y.dim(); ++d) y_flat.push_back(y.size(d));
  for (int64_t d = batch_rank; d < x.dim(); ++d) x_flat.push_back(x.size(d));
  const at::Tensor ys = y.reshape(y_flat);
  const at::Tensor xs = x.reshape(x_flat);
  for (int64_t n = 0; n < ys.size(0); ++n) {
    const std::string where = bijector.name() + " batch element " + std::to_string(n);
    const at::Tensor x_n = bijector.forward(ys[n]);
    std::string error = compare_close(xs[n], x_n, relative * (1 + x_n.abs()), where + " forward");
    if (!error.empty()) return error;
    const at::Tensor l_n = bijector.forward_log_det_jacobian(ys[n]);
    error = compare_close(log_det.reshape(-1)[n], l_n, relative * (1 + l_n.abs()),
                          where + " forward_log_det_jacobian");
    if (!error.empty()) return error;
    const at::Tensor y_n = bijector.inverse(xs[n]);
    error = compare_close(y_back.reshape(y_flat)[n], y_n, relative * (1 + y_n.abs()),
                          where + " inverse");
    if (!error.empty()) return error;
  }
  return {};
}

/// An elementwise bijector at a scalar y: inverse(forward(y)) returns y to within what the
/// conditioning allows. The constrained x is stored to eps * (|x| + bound_scale) (the bound
/// enters when x is formed or taken apart next to it), and the inverse magnifies that by
/// dy/dx = exp(-log|J|); the final log or logit adds eps * |y|. `factor` allows for the few
/// roundings of each side.
inline std::string check_elementwise_round_trip(const bijectors::Bijector& bijector, double y,
                                                double bound_scale, double factor = 8) {
  const at::Tensor point = at::scalar_tensor(y, at::kDouble);
  const at::Tensor x = bijector.forward(point);
  const double dy_dx = std::exp(-bijector.forward_log_det_jacobian(point).item<double>());
  const double tolerance =
      factor * kEps * (std::abs(y) + (std::abs(x.item<double>()) + bound_scale) * dy_dx);
  return compare_close(bijector.inverse(x), point, tolerance,
                       bijector.name() + " inverse(forward(y))");
}

/// forward(inverse(x)) returns x to factor * eps * (|x| + bound_scale + |y| dx/dy): the
/// same error budget seen from the constrained side.
inline std::string check_elementwise_inverse_round_trip(const bijectors::Bijector& bijector,
                                                        double x, double bound_scale,
                                                        double factor = 8) {
  const at::Tensor point = at::scalar_tensor(x, at::kDouble);
  const at::Tensor y = bijector.inverse(point);
  const double dx_dy = std::exp(bijector.forward_log_det_jacobian(y).item<double>());
  const double tolerance =
      factor * kEps * (std::abs(x) + bound_scale + std::abs(y.item<double>()) * dx_dy);
  return compare_close(bijector.forward(y), point, tolerance,
                       bijector.name() + " forward(inverse(x))");
}

/// For bijectors that build x by a cumulative sum, x_k = x_{k-1} + e_k (ordered,
/// positive_ordered), on one event y: inverse(forward(y)) returns y to within the
/// conditioning. The inverse recovers e_k from x_k - x_{k-1}, which is stored to
/// eps * (|x_k| + |x_{k-1}|); dividing by dx_k/dy_k (the autograd Jacobian's diagonal)
/// gives the error in y_k, and the log adds eps * |y_k|.
inline std::string check_cumulative_round_trip(const bijectors::Bijector& bijector,
                                               const at::Tensor& y, double factor = 8) {
  const at::Tensor x = bijector.forward(y);
  const at::Tensor slope =
      autograd_jacobian([&](const at::Tensor& p) { return bijector.forward(p); }, y)
          .diagonal()
          .abs();
  const at::Tensor previous = at::constant_pad_nd(x.slice(0, 0, -1), {1, 0}).abs();
  const at::Tensor tolerance = factor * kEps * (y.abs() + (x.abs() + previous) / slope);
  return compare_close(bijector.inverse(x), y, tolerance,
                       bijector.name() + " inverse(forward(y))");
}

/// forward(inverse(x)) returns x: each step e_k comes back to eps * (|x_k| + |x_{k-1}|)
/// (1 + |y_k|) (the difference, then log and exp), and the cumulative sum adds them up.
inline std::string check_cumulative_inverse_round_trip(const bijectors::Bijector& bijector,
                                                       const at::Tensor& x,
                                                       double factor = 8) {
  const at::Tensor y = bijector.inverse(x);
  const at::Tensor previous = at::constant_pad_nd(x.slice(0, 0, -1), {1, 0}).abs();
  const at::Tensor tolerance =
      factor * kEps * ((x.abs() + previous) * (1 + y.abs())).cumsum(0);
  return compare_close(bijector.forward(y), x, tolerance,
                       bijector.name() + " forward(inverse(x))");
}

}  // namespace variate::testing
