#include "engine/core/math.h"

#include <cmath>
#include <string>
#include <vector>

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/shape.h"

// Each function performs the tensor operations engine/model/functions.cpp performs on one
// point, in the same order, so that a C++ model and a .vmod model agree to the bit.

namespace variate {

at::Tensor exp(const TensorArg& x) { return at::exp(x.tensor()); }
at::Tensor log(const TensorArg& x) { return at::log(x.tensor()); }
at::Tensor log1p(const TensorArg& x) { return at::log1p(x.tensor()); }
at::Tensor expm1(const TensorArg& x) { return at::expm1(x.tensor()); }
at::Tensor sqrt(const TensorArg& x) { return at::sqrt(x.tensor()); }
at::Tensor square(const TensorArg& x) { return at::square(x.tensor()); }
at::Tensor abs(const TensorArg& x) { return at::abs(x.tensor()); }
at::Tensor inv_logit(const TensorArg& x) { return at::sigmoid(x.tensor()); }
at::Tensor logit(const TensorArg& p) { return at::logit(p.tensor()); }
at::Tensor softplus(const TensorArg& x) { return at::softplus(x.tensor()); }
at::Tensor tanh(const TensorArg& x) { return at::tanh(x.tensor()); }
at::Tensor lgamma(const TensorArg& x) { return at::lgamma(x.tensor()); }
at::Tensor pow(const TensorArg& x, const TensorArg& y) { return at::pow(x.tensor(), y.tensor()); }

at::Tensor sum(const TensorArg& x) {
  const at::Tensor& t = x.tensor();
  if (t.dim() == 0) return t;
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < t.dim(); ++d) dims.push_back(d);
  return t.sum(dims);
}

at::Tensor mean(const TensorArg& x) {
  const at::Tensor& t = x.tensor();
  if (t.dim() == 0) return t;
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < t.dim(); ++d) dims.push_back(d);
  return t.mean(dims);
}

at::Tensor dot(const TensorArg& a, const TensorArg& b) {
  if (a.tensor().dim() != 1 || b.tensor().dim() != 1 ||
      a.tensor().size(0) != b.tensor().size(0)) {
    throw ArgumentError("dot: arguments must be vectors of one length, got shapes " +
                        to_string(a.tensor().sizes()) + " and " + to_string(b.tensor().sizes()));
  }
  return (a.tensor() * b.tensor()).sum(-1);
}

at::Tensor colmeans(const TensorArg& X) {
  if (X.tensor().dim() != 2) {
    throw ArgumentError("colmeans: argument 'X' must be a matrix, got shape " +
                        to_string(X.tensor().sizes()));
  }
  return X.tensor().mean(0);
}

at::Tensor log_sum_exp(const TensorArg& x) {
  const at::Tensor& t = x.tensor();
  if (t.dim() == 0) return t;
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < t.dim(); ++d) dims.push_back(d);
  return at::logsumexp(t, dims);
}

namespace {

void require_rank(const char* function, const char* what, const at::Tensor& t, int64_t rank) {
  if (t.dim() != rank) {
    throw ArgumentError(std::string(function) + ": argument must be " + what + ", got shape " + to_string(t.sizes()));
  }
}

}  // namespace

at::Tensor log_sum_exp_rows(const TensorArg& X) {
  require_rank("log_sum_exp_rows", "a matrix", X.tensor(), 2);
  return at::logsumexp(X.tensor(), {-1});
}

at::Tensor softmax(const TensorArg& x) {
  require_rank("softmax", "a vector", x.tensor(), 1);
  return at::softmax(x.tensor(), -1);
}

at::Tensor cumulative_sum(const TensorArg& x) {
  require_rank("cumulative_sum", "a vector", x.tensor(), 1);
  return at::cumsum(x.tensor(), -1);
}

at::Tensor vector_of(const std::vector<at::Tensor>& items) {
  if (items.empty()) throw ArgumentError("vector_of: a vector needs at least one item");
  at::ScalarType type = items.front().scalar_type();
  for (const at::Tensor& item : items) {
    if (item.sizes() != items.front().sizes()) {
      throw ArgumentError("vector_of: the items of a vector have one shape, got " + to_string(items.front().sizes()) +
                          " and " + to_string(item.sizes()));
    }
    type = at::promote_types(type, item.scalar_type());
  }
  std::vector<at::Tensor> typed;
  for (const at::Tensor& item : items) typed.push_back(item.to(type));
  return at::stack(typed, 0);
}

at::Tensor where(const at::Tensor& c, const at::Tensor& a, const at::Tensor& b) {
  const auto floating = [](const at::Tensor& t) { return at::isFloatingType(t.scalar_type()) ? t : t.to(at::kDouble); };
  const bool integers = !at::isFloatingType(a.scalar_type()) && !at::isFloatingType(b.scalar_type());
  if (integers) return at::where(c != 0, a, b);
  const at::ScalarType type = at::promote_types(floating(a).scalar_type(), floating(b).scalar_type());
  return at::where(c != 0, a.to(type), b.to(type));
}

at::Tensor eye(int64_t n) {
  if (n < 1) throw ArgumentError("eye: argument 'n' must be positive, got " + std::to_string(n));
  return at::eye(n, at::kDouble);
}

at::Tensor cholesky(const TensorArg& M) {
  const at::Tensor& m = M.tensor();
  if (m.dim() < 2 || m.size(-1) != m.size(-2)) {
    throw ArgumentError("cholesky: argument 'M' must be a square matrix, got shape " +
                        to_string(m.sizes()));
  }
  const auto [factor, info] = at::linalg_cholesky_ex(m);
  if (validation_enabled() && info.ne(0).any().item<bool>()) {
    throw ArgumentError("cholesky: the matrix is not positive definite");
  }
  const at::Tensor failed = info.ne(0).reshape(Shape(info.sizes().begin(), info.sizes().end()))
                                .unsqueeze(-1).unsqueeze(-1);
  return at::where(failed, at::full({}, NAN, factor.options()), factor);
}

at::Tensor gp_exp_quad_cov(const TensorArg& x, const TensorArg& alpha, const TensorArg& rho) {
  const at::Tensor& xt = x.tensor();
  if (xt.dim() != 1 || alpha.tensor().dim() != 0 || rho.tensor().dim() != 0) {
    throw ArgumentError("gp_exp_quad_cov: arguments must be a vector x and scalars alpha and "
                        "rho, got shapes " + to_string(xt.sizes()) + ", " +
                        to_string(alpha.tensor().sizes()) + " and " +
                        to_string(rho.tensor().sizes()));
  }
  const at::Tensor squared = (xt.unsqueeze(-1) - xt.unsqueeze(-2)).square();
  return alpha.tensor().square() * at::exp(-0.5 * squared / rho.tensor().square());
}

at::Tensor lags(const at::Tensor& y, int64_t K) {
  if (y.dim() != 1) {
    throw ArgumentError("lags: argument 'y' must be a vector, got shape " + to_string(y.sizes()));
  }
  const int64_t T = y.size(0);
  if (K < 1 || K >= T) {
    throw ArgumentError("lags: argument 'K' must be between 1 and " + std::to_string(T - 1) +
                        " (the length of y minus 1), got " + std::to_string(K));
  }
  std::vector<at::Tensor> columns;
  for (int64_t lag = 1; lag <= K; ++lag) columns.push_back(y.narrow(0, K - lag, T - K));
  return at::stack(columns, -1);
}

at::Tensor transpose(const at::Tensor& M) {
  require_rank("transpose", "a matrix", M, 2);
  return M.transpose(-1, -2);
}

}  // namespace variate
