#pragma once
/// The location-scale families besides Normal, and their halves on [0, inf): each density
/// is formula for formula its distributions/<family>.cpp, with z = (x - mu) / sigma and the
/// partials chained through z as autograd chains them (dz/dx = 1 / sigma,
/// dz/dmu = -1 / sigma, dz/dsigma = -z / sigma). The halves are -inf where x < 0 or x is
/// not finite, as mask_outside_support makes them. Their sinks are in
/// location_scale_log_densities.cpp; Cauchy, StudentT, Laplace and Logistic are a Mixture's
/// components too.

#include <cmath>
#include <tuple>

#include <ATen/native/Math.h>

#include "engine/distributions/parameters.h"
#include "engine/tape/densities/pointwise_family.h"

namespace variate::tape::families {

using distributions::kHalfLog2Pi;
using distributions::kLog2;
using distributions::kLogPi;

/// The partials of a location-scale density with dlp/dz = g, and -1/sigma from -log(sigma).
inline Element located(double lp, double g, double z, const Positive& sigma) {
  const double dz = g * sigma.inverse;
  return {lp, dz, {-dz, -dz * z - sigma.inverse, 0}};
}

/// Student-t's degrees of freedom: the log normalizer lgamma((nu + 1) / 2) - lgamma(nu / 2)
/// - log(nu) / 2 and, when nu varies, its derivative.
struct DegreesOfFreedom {
  double value = 0;
  double inverse = 0;
  double half_plus = 0;  // (nu + 1) / 2
  double log_normalizer = 0;
  double d_log_normalizer = 0;
  void load(double nu, bool varying) {
    const double half_nu = 0.5 * nu;
    value = nu;
    inverse = 1.0 / nu;
    half_plus = half_nu + 0.5;
    log_normalizer = std::lgamma(half_plus) - std::lgamma(half_nu) - 0.5 * std::log(nu);
    d_log_normalizer =
        varying ? 0.5 * (calc_digamma(half_plus) - calc_digamma(half_nu)) - 0.5 * inverse : 0.0;
  }
};

/// log p - log normalizer + log(sigma) of Student-t at z, with its partials in z and nu.
struct StudentTKernel {
  double lp, dz, dnu;
};
inline StudentTKernel student_t_kernel(double z, const DegreesOfFreedom& nu) {
  const double t = z * z * nu.inverse;
  const double log1p_t = std::log1p(t);
  const double over = 1.0 / (1.0 + t);
  return {-nu.half_plus * log1p_t, -2.0 * nu.half_plus * z * nu.inverse * over,
          nu.d_log_normalizer - 0.5 * log1p_t + nu.half_plus * t * nu.inverse * over};
}

/// HalfNormal(sigma).
struct HalfNormal {
  using Arguments = std::tuple<Positive>;
  static Element at(double x, const Positive& sigma) {
    if (!on_half_line(x)) return outside_support();
    const double z = x * sigma.inverse;
    const double dx = -z * sigma.inverse;
    return {kLog2 - kHalfLog2Pi - sigma.log - 0.5 * z * z, dx, {-dx * z - sigma.inverse}};
  }
};

/// Cauchy(mu, sigma).
struct Cauchy {
  using Arguments = std::tuple<Plain, Positive>;
  static Element at(double x, const Plain& mu, const Positive& sigma) {
    const double z = (x - mu.value) * sigma.inverse;
    const double lp = -std::log1p(z * z) - sigma.log - kLogPi;
    return located(lp, -2.0 * z / (1.0 + z * z), z, sigma);
  }
};

/// HalfCauchy(sigma).
struct HalfCauchy {
  using Arguments = std::tuple<Positive>;
  static Element at(double x, const Positive& sigma) {
    if (!on_half_line(x)) return outside_support();
    const double z = x * sigma.inverse;
    const double dx = -2.0 * z / (1.0 + z * z) * sigma.inverse;
    return {kLog2 - kLogPi - sigma.log - std::log1p(z * z), dx, {-dx * z - sigma.inverse}};
  }
};

/// StudentT(nu, mu, sigma).
struct StudentT {
  using Arguments = std::tuple<DegreesOfFreedom, Plain, Positive>;
  static Element at(double x, const DegreesOfFreedom& nu, const Plain& mu, const Positive& sigma) {
    const double z = (x - mu.value) * sigma.inverse;
    const StudentTKernel k = student_t_kernel(z, nu);
    const Element e = located(nu.log_normalizer - 0.5 * kLogPi - sigma.log + k.lp, k.dz, z, sigma);
    return {e.lp, e.dx, {k.dnu, e.da[0], e.da[1]}};
  }
};

/// HalfStudentT(nu, sigma).
struct HalfStudentT {
  using Arguments = std::tuple<DegreesOfFreedom, Positive>;
  static Element at(double x, const DegreesOfFreedom& nu, const Positive& sigma) {
    if (!on_half_line(x)) return outside_support();
    const double z = x * sigma.inverse;
    const StudentTKernel k = student_t_kernel(z, nu);
    const double dx = k.dz * sigma.inverse;
    return {kLog2 + nu.log_normalizer - 0.5 * kLogPi - sigma.log + k.lp,
            dx,
            {k.dnu, -dx * z - sigma.inverse}};
  }
};

/// Laplace(mu, sigma).
struct Laplace {
  using Arguments = std::tuple<Plain, Positive>;
  static Element at(double x, const Plain& mu, const Positive& sigma) {
    const double d = x - mu.value;
    const double sign = static_cast<double>((d > 0) - (d < 0));  // abs'(0) = 0, as autograd
    const double abs_d = std::abs(d);
    const double dx = -sign * sigma.inverse;
    return {-abs_d * sigma.inverse - sigma.log - kLog2,
            dx,
            {-dx, abs_d * sigma.inverse * sigma.inverse - sigma.inverse}};
  }
};

/// Logistic(mu, sigma).
struct Logistic {
  using Arguments = std::tuple<Plain, Positive>;
  // In |z|, as distributions/logistic.cpp: -|z| - 2 log1p(exp(-|z|)) - log(sigma).
  static Element at(double x, const Plain& mu, const Positive& sigma) {
    const double z = (x - mu.value) * sigma.inverse;
    const double abs_z = std::abs(z);
    const double e = std::exp(-abs_z);
    const double d_abs_z = -1.0 + 2.0 * e / (1.0 + e);
    const double sign = static_cast<double>((z > 0) - (z < 0));
    return located(-abs_z - 2.0 * std::log1p(e) - sigma.log, d_abs_z * sign, z, sigma);
  }
};

}  // namespace variate::tape::families
