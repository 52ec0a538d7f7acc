// Acklam's rational approximation (relative error below 1.2e-9; P. J. Acklam, "An
// algorithm for computing the inverse normal cumulative distribution function", 2003),
// refined by one Halley step on Phi(x) - p using erfc, which brings it to double
// precision (the rank-normalized diagnostics are compared with R's qnorm to 1e-6).

#include "engine/diagnostics/inverse_normal_cdf.h"

#include <cmath>
#include <limits>

namespace variate::diagnostics {
namespace {

constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                        1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                        6.680131188771972e+01, -1.328068155288572e+01};
constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                        -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                        3.754408661907416e+00};
constexpr double kLow = 0.02425;

double acklam(double p) {
  if (p < kLow) {
    const double q = std::sqrt(-2 * std::log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - kLow) return -acklam(1 - p);
  const double q = p - 0.5;
  const double r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

}  // namespace

double inverse_normal_cdf(double p) {
  if (std::isnan(p) || p < 0 || p > 1) return std::numeric_limits<double>::quiet_NaN();
  if (p == 0) return -std::numeric_limits<double>::infinity();
  if (p == 1) return std::numeric_limits<double>::infinity();
  // Refine in the lower tail, where p (not 1 - p) is represented accurately, and
  // reflect: Phi^-1(p) = -Phi^-1(1 - p).
  const bool upper = p > 0.5;
  const double tail = upper ? 1 - p : p;
  double x = acklam(tail);
  const double error = 0.5 * std::erfc(-x / std::sqrt(2.0)) - tail;
  const double u = error * std::sqrt(2 * M_PI) * std::exp(0.5 * x * x);
  x -= u / (1 + 0.5 * x * u);
  return upper ? -x : x;
}

}  // namespace variate::diagnostics
