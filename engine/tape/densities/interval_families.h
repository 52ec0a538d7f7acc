#pragma once
/// The families on an interval, formula for formula their distributions/<family>.cpp:
/// Beta on (0, 1), Uniform on [lo, hi], -inf outside (as mask_outside_support makes them).

#include <cmath>
#include <tuple>

#include "engine/tape/densities/pointwise_family.h"

namespace variate::tape::families {

struct Beta {
  using Arguments = std::tuple<GammaShape, GammaShape>;
  // lgamma(a + b) and its digamma, once when a and b are scalars.
  struct Joint {
    double lgamma = 0;
    double digamma = 0;
    void load(bool varying, const GammaShape& a, const GammaShape& b) {
      lgamma = std::lgamma(a.value + b.value);
      digamma = varying ? calc_digamma(a.value + b.value) : 0.0;
    }
  };
  static Element at(double x, const GammaShape& a, const GammaShape& b, const Joint& sum) {
    if (!(x > 0 && x < 1)) return outside_support();
    const double log_x = std::log(x);
    const double log1m_x = std::log1p(-x);
    const double log_beta_function = a.lgamma + b.lgamma - sum.lgamma;
    const double lp = (a.value - 1) * log_x + (b.value - 1) * log1m_x - log_beta_function;
    return {lp,
            (a.value - 1) / x - (b.value - 1) / (1 - x),
            {log_x - a.digamma + sum.digamma, log1m_x - b.digamma + sum.digamma}};
  }
};

struct Uniform {
  using Arguments = std::tuple<Plain, Plain>;
  // -log(hi - lo) and its partial, once when lo and hi are scalars.
  struct Joint {
    double log_width = 0;
    double inverse_width = 0;
    void load(bool /*varying*/, const Plain& lo, const Plain& hi) {
      log_width = std::log(hi.value - lo.value);
      inverse_width = 1.0 / (hi.value - lo.value);
    }
  };
  static Element at(double x, const Plain& lo, const Plain& hi, const Joint& width) {
    if (!(x >= lo.value && x <= hi.value)) return outside_support();
    return {-width.log_width, 0.0, {width.inverse_width, -width.inverse_width}};
  }
};

}  // namespace variate::tape::families
