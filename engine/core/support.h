#pragma once
/// The set of values a distribution puts mass on; it picks the bijector from
/// unconstrained space and tells discrete from continuous variables.

#include <string>

#include <ATen/core/Tensor.h>

namespace variate {

class Support {
 public:
  enum class Kind {
    Real,
    LowerBounded,        // (lower, inf); positive is LowerBounded(0)
    UpperBounded,        // (-inf, upper)
    Interval,            // (lower, upper)
    Ordered,             // increasing vectors
    PositiveOrdered,     // increasing positive vectors
    Simplex,             // non-negative vectors summing to 1
    CholeskyCorr,        // Cholesky factors of correlation matrices
    Boolean,             // {0, 1}
    NonNegativeInteger,  // {0, 1, 2, ...}
    IntegerInterval,     // {lower, ..., upper}
  };

  static Support real();
  static Support positive();
  static Support lower_bounded(at::Tensor lower);
  static Support upper_bounded(at::Tensor upper);
  static Support interval(at::Tensor lower, at::Tensor upper);
  static Support unit_interval();
  static Support ordered();
  static Support positive_ordered();
  static Support simplex();
  static Support cholesky_corr();
  static Support boolean();
  static Support nonnegative_integer();
  static Support integer_interval(at::Tensor lower, at::Tensor upper);

  Kind kind() const { return kind_; }
  /// Bounds, defined for the kinds that have them.
  const at::Tensor& lower() const { return lower_; }
  const at::Tensor& upper() const { return upper_; }
  bool is_discrete() const;
  /// Number of trailing dimensions one constrained value spans (0, 1 for vectors, 2 for
  /// matrices).
  int64_t event_rank() const;
  /// "positive", "interval(0, 1)", "simplex", ...
  std::string to_string() const;
  /// Whether each value lies in the support; event dimensions are reduced.
  at::Tensor contains(const at::Tensor& value) const;

 private:
  Support(Kind kind, at::Tensor lower = {}, at::Tensor upper = {});

  Kind kind_;
  at::Tensor lower_;
  at::Tensor upper_;
};

}  // namespace variate
