#pragma once
/// The families on [0, inf) or (0, inf) that are not halves of a location-scale family,
/// formula for formula their distributions/<family>.cpp: -inf outside the support (as
/// mask_outside_support makes them), xlogy where the file uses at::xlogy. Their sinks are in
/// positive_log_densities.cpp; LogNormal, Exponential and Gamma are a Mixture's components
/// too.

#include <cmath>
#include <tuple>

#include "engine/tape/densities/normal_family.h"
#include "engine/tape/densities/pointwise_family.h"

namespace variate::tape::families {

/// at::xlogy(a, y), 0 where a = 0, with log(y) given, for y not NaN.
inline double xlogy(double a, double log_y) { return a == 0 ? 0.0 : a * log_y; }
/// Its partial in a as autograd has it: log(y), but 0 where a = 0 and y <= 0.
inline double xlogy_partial(double a, double y, double log_y) { return a == 0 && y <= 0 ? 0.0 : log_y; }

/// Exponential(rate).
struct Exponential {
  using Arguments = std::tuple<Positive>;
  static Element at(double x, const Positive& rate) {
    if (!on_half_line(x)) return outside_support();
    return {rate.log - rate.value * x, -rate.value, {rate.inverse - x}};
  }
};

/// Gamma(shape, rate).
struct Gamma {
  using Arguments = std::tuple<GammaShape, Positive>;
  static Element at(double x, const GammaShape& shape, const Positive& rate) {
    if (!on_half_line(x)) return outside_support();
    const double log_x = std::log(x);
    const double shape_m1 = shape.value - 1.0;
    const double lp =
        shape.value * rate.log - shape.lgamma + xlogy(shape_m1, log_x) - rate.value * x;
    return {lp,
            shape_m1 / x - rate.value,
            {rate.log - shape.digamma + xlogy_partial(shape_m1, x, log_x),
             shape.value * rate.inverse - x}};
  }
};

/// InvGamma(shape, scale).
struct InvGamma {
  using Arguments = std::tuple<GammaShape, Positive>;
  static Element at(double x, const GammaShape& shape, const Positive& scale) {
    if (!positive_finite(x)) return outside_support();
    const double log_x = std::log(x);
    const double inverse_x = 1.0 / x;
    const double lp = shape.value * scale.log - shape.lgamma - (shape.value + 1.0) * log_x -
                      scale.value * inverse_x;
    return {lp,
            (scale.value * inverse_x - (shape.value + 1.0)) * inverse_x,
            {scale.log - shape.digamma - log_x, shape.value * scale.inverse - inverse_x}};
  }
};

/// LogNormal(mu, sigma): Normal at log x, less log x (the Jacobian of exp).
struct LogNormal {
  using Arguments = std::tuple<Plain, Positive>;
  static Element at(double x, const Plain& mu, const Positive& sigma) {
    if (!positive_finite(x)) return outside_support();
    const double log_x = std::log(x);
    const Element e = Normal::at(log_x, mu, sigma);
    return {e.lp - log_x, (e.dx - 1.0) / x, e.da};
  }
};

/// Weibull(shape, scale).
struct Weibull {
  using Arguments = std::tuple<Positive, Positive>;
  // log(alpha) - log(sigma) + xlogy(alpha - 1, s) - s^alpha with s = x / sigma; the partial
  // of s^alpha as autograd's pow: alpha s^(alpha - 1) in s, s^alpha log(s) in alpha (0 at
  // s = 0).
  static Element at(double x, const Positive& shape, const Positive& scale) {
    if (!on_half_line(x)) return outside_support();
    const double a = shape.value;
    const double s = x * scale.inverse;
    const double log_s = std::log(s);
    const double power = std::pow(s, a);
    const double d_s = (a - 1.0) / s - a * std::pow(s, a - 1.0);
    const double d_x = d_s * scale.inverse;
    return {shape.log - scale.log + xlogy(a - 1.0, log_s) - power,
            d_x,
            {shape.inverse + xlogy_partial(a - 1.0, s, log_s) -
                 (s == 0 && a >= 0 ? 0.0 : power * log_s),
             -scale.inverse - d_x * s}};
  }
};

}  // namespace variate::tape::families
