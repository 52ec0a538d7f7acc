#include "engine/core/checks.h"

#include <vector>

#include <ATen/ATen.h>
#include <ATen/ExpandUtils.h>

namespace variate {
namespace {

thread_local bool validation_on = true;
thread_local bool argument_checks_on = false;

// The position of a flat index in `shape`.
std::vector<int64_t> unravel(int64_t flat, c10::IntArrayRef shape) {
  std::vector<int64_t> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  return index;
}

}  // namespace

bool validation_enabled() { return validation_on; }

ValidationGuard::ValidationGuard(bool enabled) : previous_(validation_on) {
  validation_on = enabled;
}

ValidationGuard::~ValidationGuard() { validation_on = previous_; }

bool argument_checks_enabled() { return argument_checks_on; }

ArgumentCheckGuard::ArgumentCheckGuard(bool enabled) : previous_(argument_checks_on) { argument_checks_on = enabled; }

ArgumentCheckGuard::~ArgumentCheckGuard() { argument_checks_on = previous_; }

void throw_if_any(const char* function, const char* argument, const at::Tensor& value,
                  const at::Tensor& bad, const char* requirement) {
  at::NoGradGuard no_grad;
  const at::Tensor flat_bad = bad.expand(value.sizes()).reshape(-1);
  if (!flat_bad.any().item<bool>()) return;
  const int64_t first = flat_bad.nonzero().index({0, 0}).item<int64_t>();
  const double got = value.reshape(-1)[first].item<double>();
  throw DomainError(function, argument, requirement, got, unravel(first, value.sizes()));
}

void check_positive(const char* function, const char* argument, const at::Tensor& value) {
  if (!validation_on) return;
  throw_if_any(function, argument, value, ~(value > 0), "positive");
}

void check_nonnegative(const char* function, const char* argument, const at::Tensor& value) {
  if (!validation_on) return;
  throw_if_any(function, argument, value, ~(value >= 0), "non-negative");
}

void check_finite(const char* function, const char* argument, const at::Tensor& value) {
  if (!validation_on) return;
  throw_if_any(function, argument, value, ~at::isfinite(value), "finite");
}

void check_probability(const char* function, const char* argument, const at::Tensor& value) {
  if (!validation_on) return;
  throw_if_any(function, argument, value, ~((value >= 0) & (value <= 1)), "in [0, 1]");
}

void check_nonnegative_integer(const char* function, const char* argument,
                               const at::Tensor& value) {
  if (!validation_on) return;
  throw_if_any(function, argument, value, ~((value >= 0) & (value == at::floor(value))),
               "a non-negative integer");
}

void check_less(const char* function, const char* lower_name, const at::Tensor& lower,
                const char* upper_name, const at::Tensor& upper) {
  if (!validation_on) return;
  const at::Tensor bad = ~(lower < upper);
  const std::string requirement = std::string("less than '") + upper_name + "'";
  const std::vector<int64_t> shape = at::infer_size(lower.sizes(), upper.sizes());
  throw_if_any(function, lower_name, lower.expand(shape), bad.expand(shape),
               requirement.c_str());
}

void check_min_rank(const char* function, const char* argument, const at::Tensor& value,
                    int64_t rank) {
  if (value.dim() >= rank) return;
  throw ArgumentError(std::string(function) + ": argument '" + argument + "' must have at least " +
                      std::to_string(rank) + " dimension(s), got shape " +
                      c10::str(value.sizes()));
}

void check_simplex(const char* function, const char* argument, const at::Tensor& value) {
  check_min_rank(function, argument, value, 1);
  if (!validation_on) return;
  // !(v >= 0) rejects NaN as well as negative entries.
  throw_if_any(function, argument, value, ~(value >= 0), "a simplex (non-negative entries)");
  const at::Tensor sums = value.sum(-1);
  const double tolerance = value.scalar_type() == at::kDouble ? 1e-8 : 1e-5;
  throw_if_any(function, argument, sums, at::abs(sums - 1) > tolerance,
               "a simplex (entries summing to 1)|sum");
}

namespace {

// At least 2-D with square trailing dimensions; checked whether or not validation is on,
// since the linear algebra that follows depends on it.
void check_square(const char* function, const char* argument, const at::Tensor& value) {
  check_min_rank(function, argument, value, 2);
  if (value.size(-1) != value.size(-2)) {
    throw ArgumentError(std::string(function) + ": argument '" + argument +
                        "' must be square, got shape " + c10::str(value.sizes()));
  }
}

}  // namespace

void check_cholesky_factor(const char* function, const char* argument,
                           const at::Tensor& value) {
  check_square(function, argument, value);
  if (!validation_on) return;
  throw_if_any(function, argument, value, value.triu(1) != 0,
               "lower triangular; an entry above the diagonal is");
  const at::Tensor diagonal = value.diagonal(0, -2, -1);
  throw_if_any(function, argument, diagonal, ~(diagonal > 0),
               "a Cholesky factor with a positive diagonal; a diagonal entry is");
}

void check_positive_definite(const char* function, const char* argument,
                             const at::Tensor& value) {
  check_square(function, argument, value);
  if (!validation_on) return;
  const at::Tensor asymmetry = at::abs(value - value.transpose(-2, -1));
  const double scale = at::abs(value).max().item<double>();
  throw_if_any(function, argument, asymmetry, asymmetry > 1e-8 * std::max(scale, 1.0),
               "symmetric; an asymmetry is");
  const auto result = at::linalg_cholesky_ex(value.detach());
  const at::Tensor info = std::get<1>(result);
  if (info.ne(0).any().item<bool>()) {
    throw ArgumentError(std::string(function) + ": argument '" + argument +
                        "' must be positive definite");
  }
}

}  // namespace variate
