#pragma once
/// Pointwise log densities of the scalar families a Mixture's component may be, with
/// their partials: the same formulas as the families' log_prob (engine/distributions),
/// evaluated one value and one component at a time.
///
/// Each family is a struct with
///   kArguments            its arguments, in the language's order
///   kCache                doubles that depend on the arguments alone (log sigma, 1 / sigma,
///                         lgamma terms), computed once per component when the component's
///                         arguments are shared by all elements
///   prepare(a, cache)     fills them
///   lpdf(x, a, cache, d_x, d_a)  the log density at x, its partial in x and in each a[k]

#include <ATen/native/Math.h>

#include <cmath>
#include <limits>

namespace variate::tape::mixture {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();
constexpr double kHalfLog2Pi = 0.91893853320467274178;
constexpr double kLogPi = 1.14472988584940017414;
constexpr double kLog2 = 0.69314718055994530942;

inline double sign(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }

// Location-scale families: z = (x - mu) / sigma and partials through dz.
inline void location_scale_partials(double dz, double z, double inverse_sigma, double& d_x,
                                    double* d_a) {
  d_x = dz * inverse_sigma;
  d_a[0] = -d_x;
  d_a[1] = -(dz * z + 1) * inverse_sigma;
}

struct Normal {
  static constexpr int kArguments = 2;  // mu, sigma
  static constexpr int kCache = 2;      // log sigma, 1 / sigma
  static void prepare(const double* a, double* cache) {
    cache[0] = std::log(a[1]);
    cache[1] = 1 / a[1];
  }
  static double lpdf(double x, const double* a, const double* cache, double& d_x, double* d_a) {
    const double z = (x - a[0]) * cache[1];
    location_scale_partials(-z, z, cache[1], d_x, d_a);
    return -0.5 * z * z - cache[0] - kHalfLog2Pi;
  }
};

struct LogNormal {
  static constexpr int kArguments = 2;  // mu, sigma
  static constexpr int kCache = 2;      // log sigma, 1 / sigma
  static void prepare(const double* a, double* cache) { Normal::prepare(a, cache); }
  static double lpdf(double x, const double* a, const double* cache, double& d_x, double* d_a) {
    if (!(x > 0 && std::isfinite(x))) {
      d_x = d_a[0] = d_a[1] = 0;
      return kMinusInfinity;
    }
    const double log_x = std::log(x);
    const double z = (log_x - a[0]) * cache[1];
    location_scale_partials(-z, z, cache[1], d_x, d_a);
    d_x = (d_x - 1) / x;
    return -0.5 * z * z - cache[0] - kHalfLog2Pi - log_x;
  }
};

struct StudentT {
  static constexpr int kArguments = 3;  // nu, mu, sigma
  // The terms of nu and sigma alone, 1 / sigma, their nu-derivative, 1 / nu.
  static constexpr int kCache = 4;
  static void prepare(const double* a, double* cache) {
    const double nu = a[0];
    const double half_nu = 0.5 * nu;
    cache[0] = std::lgamma(half_nu + 0.5) - std::lgamma(half_nu) - 0.5 * std::log(nu) -
               0.5 * kLogPi - std::log(a[2]);
    cache[1] = 1 / a[2];
    cache[2] = 0.5 * calc_digamma(half_nu + 0.5) - 0.5 * calc_digamma(half_nu) - 0.5 / nu;
    cache[3] = 1 / nu;
  }
  static double lpdf(double x, const double* a, const double* cache, double& d_x, double* d_a) {
    const double z = (x - a[1]) * cache[1];
    const double t = z * z * cache[3];
    const double power = 0.5 * a[0] + 0.5;
    const double dz = -power * 2 * z * cache[3] / (1 + t);
    location_scale_partials(dz, z, cache[1], d_x, d_a + 1);
    d_a[0] = cache[2] - 0.5 * std::log1p(t) + power * t * cache[3] / (1 + t);
    return cache[0] - power * std::log1p(t);
  }
};

struct Cauchy {
  static constexpr int kArguments = 2;  // mu, sigma
  static constexpr int kCache = 2;      // log sigma + log pi, 1 / sigma
  static void prepare(const double* a, double* cache) {
    cache[0] = std::log(a[1]) + kLogPi;
    cache[1] = 1 / a[1];
  }
  static double lpdf(double x, const double* a, const double* cache, double& d_x, double* d_a) {
    const double z = (x - a[0]) * cache[1];
    location_scale_partials(-2 * z / (1 + z * z), z, cache[1], d_x, d_a);
    return -std::log1p(z * z) - cache[0];
  }
};

struct Laplace {
  static constexpr int kArguments = 2;  // mu, sigma
  static constexpr int kCache = 2;      // log sigma + log 2, 1 / sigma
  static void prepare(const double* a, double* cache) {
    cache[0] = std::log(a[1]) + kLog2;
    cache[1] = 1 / a[1];
  }
  static double lpdf(double x, const double* a, const double* cache, double& d_x, double* d_a) {
    const double z = (x - a[0]) * cache[1];
    // |x - mu| has gradient sign(x - mu), 0 at the kink (at::abs).
    location_scale_partials(-sign(z), z, cache[1], d_x, d_a);
    return -std::abs(z) - cache[0];
  }
};

struct Logistic {
  static constexpr int kArguments = 2;  // mu, sigma
  static constexpr int kCache = 2;      // log sigma, 1 / sigma
  static void prepare(const double* a, double* cache) { Normal::prepare(a, cache); }
  static double lpdf(double x, const double* a, const double* cache, double& d_x, double* d_a) {
    // In |z|, as the family writes it: exp of a large positive number never appears.
    const double z = (x - a[0]) * cache[1];
    const double abs_z = std::abs(z);
    const double e = std::exp(-abs_z);
    location_scale_partials(sign(z) * (-1 + 2 * e / (1 + e)), z, cache[1], d_x, d_a);
    return -abs_z - 2.0 * std::log1p(e) - cache[0];
  }
};

struct Exponential {
  static constexpr int kArguments = 1;  // rate
  static constexpr int kCache = 1;      // log rate
  static void prepare(const double* a, double* cache) { cache[0] = std::log(a[0]); }
  static double lpdf(double x, const double* a, const double* cache, double& d_x, double* d_a) {
    if (!(x >= 0 && std::isfinite(x))) {
      d_x = d_a[0] = 0;
      return kMinusInfinity;
    }
    d_x = -a[0];
    d_a[0] = 1 / a[0] - x;
    return cache[0] - a[0] * x;
  }
};

struct Gamma {
  static constexpr int kArguments = 2;  // shape alpha, rate beta
  // alpha log beta - lgamma(alpha), log beta, digamma(alpha).
  static constexpr int kCache = 3;
  static void prepare(const double* a, double* cache) {
    cache[1] = std::log(a[1]);
    cache[0] = a[0] * cache[1] - std::lgamma(a[0]);
    cache[2] = calc_digamma(a[0]);
  }
  static double lpdf(double x, const double* a, const double* cache, double& d_x, double* d_a) {
    if (!(x >= 0 && std::isfinite(x))) {
      d_x = d_a[0] = d_a[1] = 0;
      return kMinusInfinity;
    }
    // xlogy(alpha - 1, x): 0 at alpha = 1 even where x = 0.
    const double power = a[0] - 1;
    const double log_x = std::log(x);
    d_x = power / x - a[1];
    // LibTorch's xlogy backward: log x in alpha, but 0 at alpha = 1, x = 0.
    d_a[0] = cache[1] - cache[2] + (power == 0 && x <= 0 ? 0.0 : log_x);
    d_a[1] = a[0] / a[1] - x;
    return cache[0] + (power == 0 ? 0.0 : power * log_x) - a[1] * x;
  }
};

// Poisson's value is a count (data): no partial in x. log k! is one per element, the same
// for every component, but kept in each component's density as the family has it.
inline bool is_count(double k) { return k >= 0 && std::isfinite(k) && k == std::floor(k); }

struct PoissonRate {
  static constexpr int kArguments = 1;  // rate
  static constexpr int kCache = 1;      // log rate
  static void prepare(const double* a, double* cache) { cache[0] = std::log(a[0]); }
  static double lpdf(double k, const double* a, const double* cache, double& d_x, double* d_a) {
    d_x = 0;
    if (!is_count(k)) {
      d_a[0] = 0;
      return kMinusInfinity;
    }
    d_a[0] = (k == 0 ? 0.0 : k / a[0]) - 1;
    return (k == 0 ? 0.0 : k * cache[0]) - a[0] - std::lgamma(k + 1);
  }
};

struct PoissonLogRate {
  static constexpr int kArguments = 1;  // log rate
  static constexpr int kCache = 1;      // rate
  static void prepare(const double* a, double* cache) { cache[0] = std::exp(a[0]); }
  static double lpdf(double k, const double* a, const double* cache, double& d_x, double* d_a) {
    d_x = 0;
    if (!is_count(k)) {
      d_a[0] = 0;
      return kMinusInfinity;
    }
    d_a[0] = k - cache[0];
    return k * a[0] - cache[0] - std::lgamma(k + 1);
  }
};

}  // namespace variate::tape::mixture
