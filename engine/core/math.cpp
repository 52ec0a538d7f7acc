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

}  // namespace variate
