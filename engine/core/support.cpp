#include "engine/core/support.h"

#include <sstream>

#include <ATen/ATen.h>

namespace variate {
namespace {

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

std::string describe(const at::Tensor& t) {
  if (t.numel() == 1) {
    std::ostringstream out;
    out << t.item<double>();
    return out.str();
  }
  return "tensor" + c10::str(t.sizes());
}

at::Tensor is_integer(const at::Tensor& x) { return at::isfinite(x) & (x == at::floor(x)); }

// Sums and unit norms hold to rounding: 1e-8 in double, a few float epsilons in float32.
double tolerance(const at::Tensor& x) {
  return x.scalar_type() == at::kFloat || x.scalar_type() == at::kHalf ||
                 x.scalar_type() == at::kBFloat16
             ? 1e-5
             : 1e-8;
}

}  // namespace

Support::Support(Kind kind, at::Tensor lower, at::Tensor upper)
    : kind_(kind), lower_(std::move(lower)), upper_(std::move(upper)) {}

Support Support::real() { return Support(Kind::Real); }
Support Support::positive() { return Support(Kind::LowerBounded, scalar(0.0)); }
Support Support::lower_bounded(at::Tensor lower) {
  return Support(Kind::LowerBounded, std::move(lower));
}
Support Support::upper_bounded(at::Tensor upper) {
  return Support(Kind::UpperBounded, {}, std::move(upper));
}
Support Support::interval(at::Tensor lower, at::Tensor upper) {
  return Support(Kind::Interval, std::move(lower), std::move(upper));
}
Support Support::unit_interval() { return interval(scalar(0.0), scalar(1.0)); }
Support Support::ordered() { return Support(Kind::Ordered); }
Support Support::positive_ordered() { return Support(Kind::PositiveOrdered); }
Support Support::simplex() { return Support(Kind::Simplex); }
Support Support::cholesky_corr() { return Support(Kind::CholeskyCorr); }
Support Support::boolean() { return Support(Kind::Boolean, scalar(0.0), scalar(1.0)); }
Support Support::nonnegative_integer() {
  return Support(Kind::NonNegativeInteger, scalar(0.0));
}
Support Support::integer_interval(at::Tensor lower, at::Tensor upper) {
  return Support(Kind::IntegerInterval, std::move(lower), std::move(upper));
}

bool Support::is_discrete() const {
  return kind_ == Kind::Boolean || kind_ == Kind::NonNegativeInteger ||
         kind_ == Kind::IntegerInterval;
}

int64_t Support::event_rank() const {
  switch (kind_) {
    case Kind::Ordered:
    case Kind::PositiveOrdered:
    case Kind::Simplex:
      return 1;
    case Kind::CholeskyCorr:
      return 2;
    default:
      return 0;
  }
}

std::string Support::to_string() const {
  switch (kind_) {
    case Kind::Real: return "real";
    case Kind::LowerBounded:
      return lower_.numel() == 1 && lower_.item<double>() == 0.0
                 ? "positive"
                 : "lower_bounded(" + describe(lower_) + ")";
    case Kind::UpperBounded: return "upper_bounded(" + describe(upper_) + ")";
    case Kind::Interval: return "interval(" + describe(lower_) + ", " + describe(upper_) + ")";
    case Kind::Ordered: return "ordered";
    case Kind::PositiveOrdered: return "positive_ordered";
    case Kind::Simplex: return "simplex";
    case Kind::CholeskyCorr: return "cholesky_corr";
    case Kind::Boolean: return "boolean";
    case Kind::NonNegativeInteger: return "nonnegative_integer";
    case Kind::IntegerInterval:
      return "integer_interval(" + describe(lower_) + ", " + describe(upper_) + ")";
  }
  return "unknown";
}

at::Tensor Support::contains(const at::Tensor& x) const {
  switch (kind_) {
    case Kind::Real: return at::isfinite(x);
    case Kind::LowerBounded: return x > lower_;
    case Kind::UpperBounded: return x < upper_;
    case Kind::Interval: return (x > lower_) & (x < upper_);
    case Kind::Ordered:
      return at::isfinite(x).all(-1) & (x.diff(1, -1) > 0).all(-1);
    case Kind::PositiveOrdered:
      return (x > 0).all(-1) & (x.diff(1, -1) > 0).all(-1);
    case Kind::Simplex:
      return (x >= 0).all(-1) & (at::abs(x.sum(-1) - 1) < tolerance(x));
    case Kind::CholeskyCorr: {
      const at::Tensor lower_triangular = (x.triu(1) == 0).flatten(-2).all(-1);
      const at::Tensor positive_diagonal = (x.diagonal(0, -2, -1) > 0).all(-1);
      const at::Tensor unit_rows = (at::abs(x.square().sum(-1) - 1) < tolerance(x)).all(-1);
      return lower_triangular & positive_diagonal & unit_rows;
    }
    case Kind::Boolean: return (x == 0) | (x == 1);
    case Kind::NonNegativeInteger: return (x >= 0) & is_integer(x);
    case Kind::IntegerInterval: return (x >= lower_) & (x <= upper_) & is_integer(x);
  }
  return at::ones_like(x, x.options().dtype(at::kBool));
}

}  // namespace variate
