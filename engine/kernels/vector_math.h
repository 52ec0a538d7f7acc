#pragma once
/// exp and log1p written so that compilers vectorize loops that call them: no branches,
/// no calls, no lookup tables — what the fused likelihood kernels need, since the
/// standard library's exp/log1p are calls that keep a loop scalar.
///
/// exp: Cody & Waite (1980) range reduction x = n ln 2 + r, |r| <= ln 2 / 2, then the
/// Taylor polynomial of e^r (degree 13 for double, 7 for float: truncation below half an
/// ulp) and 2^n built in the exponent bits. log1p on [0, 1]: as fdlibm's s_log1p.c,
/// 1 + u = 2^k m with m in [1, sqrt 2), log m = 2 atanh(f / (2 + f)) with f = m - 1 by its
/// series (Taylor coefficients, one more term than fdlibm's minimax ones need), plus the
/// rounding error of 1 + u as a first-order correction. Both agree with
/// the C library to a few ulp (checked in tests/engine/kernels/tst_vector_math.cpp).

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace variate::kernels {

namespace detail {

template <class T>
struct FloatBits;
template <>
struct FloatBits<double> {
  using Integer = int64_t;
  static constexpr int mantissa = 52;
  static constexpr int bias = 1023;
  static constexpr double max_log = 709.782712893384;  // log(DBL_MAX)
  static constexpr double min_log = -708.0;  // 2^n stays a normal number
};
template <>
struct FloatBits<float> {
  using Integer = int32_t;
  static constexpr int mantissa = 23;
  static constexpr int bias = 127;
  static constexpr float max_log = 88.72283f;
  static constexpr float min_log = -87.0f;
};

}  // namespace detail

/// e^x; +inf above log(max), and below about -708 (float: -87) the value at that bound,
/// a number under 1e-307 (float: 1.7e-38) instead of a subnormal or 0.
template <class T>
inline T vexp(T x) {
  using Bits = detail::FloatBits<T>;
  using Integer = typename Bits::Integer;
  const T bounded = x < T(Bits::min_log) ? T(Bits::min_log) : (x > T(Bits::max_log) ? T(Bits::max_log) : x);
  const T n = std::nearbyint(bounded * T(1.4426950408889634));
  // ln 2 split so that n * ln2_high is exact for |n| < 2^11.
  const T r = bounded - n * T(0.693145751953125) - n * T(1.42860682030941723212e-6);
  T p;
  if constexpr (sizeof(T) == 8) {
    p = T(1.0 / 6227020800.0);
    p = p * r + T(1.0 / 479001600.0);
    p = p * r + T(1.0 / 39916800.0);
    p = p * r + T(1.0 / 3628800.0);
    p = p * r + T(1.0 / 362880.0);
    p = p * r + T(1.0 / 40320.0);
    p = p * r + T(1.0 / 5040.0);
    p = p * r + T(1.0 / 720.0);
    p = p * r + T(1.0 / 120.0);
    p = p * r + T(1.0 / 24.0);
    p = p * r + T(1.0 / 6.0);
  } else {
    p = T(1.0 / 5040.0);
    p = p * r + T(1.0 / 720.0);
    p = p * r + T(1.0 / 120.0);
    p = p * r + T(1.0 / 24.0);
    p = p * r + T(1.0 / 6.0);
  }
  p = p * r + T(0.5);
  p = p * r + T(1);
  p = p * r + T(1);
  const Integer exponent = (static_cast<Integer>(n) + Bits::bias) << Bits::mantissa;
  T scale;
  std::memcpy(&scale, &exponent, sizeof(T));
  return x > T(Bits::max_log) ? std::numeric_limits<T>::infinity() : p * scale;
}

/// log(1 + u) for u in [0, 1].
template <class T>
inline T vlog1p_unit(T u) {
  const T w = T(1) + u;
  const T rounding = u - (w - T(1));  // 1 + u = w + rounding exactly
  const bool upper = w > T(1.4142135623730951);
  const T m = upper ? w * T(0.5) : w;
  const T f = m - T(1);
  const T s = f / (T(2) + f);
  const T z = s * s;
  // R = 2 atanh(s) / s - 2 = sum_i 2 z^i / (2i + 1), and log(1 + f) = f - (f^2/2 - s (f^2/2 + R))
  // as fdlibm arranges it, so that the exact f is the leading term.
  T R;
  if constexpr (sizeof(T) == 8) {
    R = T(2.0 / 25.0);
    R = R * z + T(2.0 / 23.0);
    R = R * z + T(2.0 / 21.0);
    R = R * z + T(2.0 / 19.0);
    R = R * z + T(2.0 / 17.0);
    R = R * z + T(2.0 / 15.0);
    R = R * z + T(2.0 / 13.0);
    R = R * z + T(2.0 / 11.0);
  } else {
    R = T(2.0 / 11.0);
  }
  R = R * z + T(2.0 / 9.0);
  R = R * z + T(2.0 / 7.0);
  R = R * z + T(2.0 / 5.0);
  R = R * z + T(2.0 / 3.0);
  R = R * z;
  const T half_square = T(0.5) * f * f;
  const T log_m = f - (half_square - s * (half_square + R));
  // ln 2 in two parts (fdlibm's ln2_hi, ln2_lo) so that the large part is added last.
  const T k = upper ? T(1) : T(0);
  return k * T(6.93147180369123816490e-01) + (log_m + (rounding / w + k * T(1.90821492927058770002e-10)));
}

}  // namespace variate::kernels
