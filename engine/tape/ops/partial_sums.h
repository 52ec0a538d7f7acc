#pragma once
/// Reductions in a fixed order with four partial sums: independent chains the compiler
/// can pipeline (and pack two to a register) without -ffast-math's reassociation, and
/// the same result on every run.

#include <cstdint>

namespace variate::tape {

/// sum_i term(i) for i in [0, n).
template <class Term>
inline double sum_of_terms(int64_t n, const Term& term) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += term(i);
    s1 += term(i + 1);
    s2 += term(i + 2);
    s3 += term(i + 3);
  }
  for (; i < n; ++i) s0 += term(i);
  return (s0 + s1) + (s2 + s3);
}

/// sum_i x[i].
inline double sum_of(const double* x, int64_t n) {
  return sum_of_terms(n, [x](int64_t i) { return x[i]; });
}

/// sum_i a[i] * b[i].
inline double dot_of(const double* a, const double* b, int64_t n) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < n; ++i) s0 += a[i] * b[i];
  return (s0 + s1) + (s2 + s3);
}

}  // namespace variate::tape
