#pragma once
/// What a family's pointwise log density is written in: one element's log density with its
/// partials, the kinds of argument, and the supports. A family's density is written once, as
/// a struct with
///   using Arguments = std::tuple<Kind...>;       // one per argument, in order
///   static Element at(double x, const Kind&...);  // one element's log density, partials
/// which both its sink (family_sink, density_sink.h, or a kernel of its own built from the
/// same pieces) and a Mixture's component (mixture_log_density.cpp) evaluate. A Kind holds an
/// argument's value and what is derived from it alone (Positive: log and reciprocal), loaded
/// once for the elements that share it. The families a Mixture's component may be are in
/// namespace families, one header per group (normal_family.h, location_scale_families.h,
/// positive_families.h, poisson_family.h); the others stay in their sink's source file.

#include <array>
#include <cmath>
#include <limits>

#include <ATen/native/Math.h>

namespace variate::tape {

/// One element's log density and its partials in the value (dx) and the arguments (da).
struct Element {
  double lp = 0;
  double dx = 0;
  std::array<double, 3> da{};
};

/// Where the density is -inf (its partials are never read).
inline Element outside_support() { return {-std::numeric_limits<double>::infinity(), 0, {}}; }

/// An argument used as it is (a location).
struct Plain {
  double value = 0;
  void load(double v, bool /*varying*/) { value = v; }
};

/// A positive argument (a scale, a rate): its log and reciprocal.
struct Positive {
  double value = 0;
  double log = 0;
  double inverse = 0;
  void load(double v, bool /*varying*/) {
    value = v;
    log = std::log(v);
    inverse = 1.0 / v;
  }
};

/// A shape argument of the gamma function (Gamma's, Beta's): lgamma and, when it varies,
/// digamma (LibTorch's own calc_digamma, which at::digamma and lgamma's gradient call).
struct GammaShape {
  double value = 0;
  double lgamma = 0;
  double digamma = 0;
  void load(double v, bool varying) {
    value = v;
    lgamma = std::lgamma(v);
    digamma = varying ? calc_digamma(v) : 0.0;
  }
};

/// (x >= 0) & isfinite(x), as mask_outside_support has it: Exponential, Gamma, Weibull and
/// the halves of the location-scale families.
inline bool on_half_line(double x) { return x >= 0 && std::isfinite(x); }
/// (x > 0) & isfinite(x): InvGamma, LogNormal, HalfFlat.
inline bool positive_finite(double x) { return x > 0 && std::isfinite(x); }
/// A count of the discrete families: a finite whole number >= 0.
inline bool is_count(double k) { return k >= 0 && std::isfinite(k) && k == std::floor(k); }

}  // namespace variate::tape
