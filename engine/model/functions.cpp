#include "engine/model/functions.h"

#include <functional>
#include <map>

#include <ATen/ATen.h>

#include "engine/model/model_error.h"
#include "engine/model/ode_call.h"

namespace variate::model {
namespace {

using Unary = std::function<at::Tensor(const at::Tensor&)>;

const std::map<std::string, Unary>& elementwise() {
  static const std::map<std::string, Unary> table = {
      {"exp", [](const at::Tensor& x) { return at::exp(x); }},
      {"log", [](const at::Tensor& x) { return at::log(x); }},
      {"log1p", [](const at::Tensor& x) { return at::log1p(x); }},
      {"expm1", [](const at::Tensor& x) { return at::expm1(x); }},
      {"sqrt", [](const at::Tensor& x) { return at::sqrt(x); }},
      {"square", [](const at::Tensor& x) { return at::square(x); }},
      {"abs", [](const at::Tensor& x) { return at::abs(x); }},
      {"inv_logit", [](const at::Tensor& x) { return at::sigmoid(x); }},
      {"logit", [](const at::Tensor& x) { return at::logit(x); }},
      {"softplus", [](const at::Tensor& x) { return at::softplus(x); }},
      {"tanh", [](const at::Tensor& x) { return at::tanh(x); }},
      {"lgamma", [](const at::Tensor& x) { return at::lgamma(x); }},
  };
  return table;
}

// Functions other than the elementwise ones, with their argument counts.
const std::map<std::string, size_t>& structural() {
  static const std::map<std::string, size_t> table = {
      {"sum", 1}, {"mean", 1}, {"dot", 2}, {"colmeans", 1}, {"eye", 1},
      {"cholesky", 1}, {"gp_exp_quad_cov", 3}, {"lags", 2},
      {"log_sum_exp", 1}, {"log_sum_exp_rows", 1}, {"softmax", 1}, {"cumulative_sum", 1},
      {"transpose", 1},
  };
  return table;
}

Span argument_span(const Expr& call, size_t i) { return call.arguments[i].value.span; }

void require_rank(const Expr& call, const std::vector<Value>& args, size_t i, int64_t rank,
                  const char* what) {
  if (args[i].rank() != rank) {
    throw ModelError(argument_span(call, i),
                     call.name + ": argument " + std::to_string(i + 1) + " must be " + what +
                         ", got shape " + variate::to_string(args[i].point_shape()));
  }
}

// A constant integer argument (a size), such as n in eye(n).
int64_t constant_integer(const Expr& call, const std::vector<Value>& args, size_t i) {
  const Value& v = args[i];
  if (v.batched || v.rank() != 0 || !v.integer) {
    throw ModelError(argument_span(call, i),
                     call.name + ": argument " + std::to_string(i + 1) +
                         " must be an integer known from the data");
  }
  return v.tensor.item<int64_t>();
}

at::Tensor floating(const Value& v) {
  return at::isFloatingType(v.tensor.scalar_type()) ? v.tensor : v.tensor.to(at::kDouble);
}

// Sum or mean over every point dimension.
Value reduce(const Value& v, bool mean) {
  at::Tensor t = floating(v);
  if (v.rank() == 0) return {t, v.batched, v.integer && !mean};
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < v.rank(); ++d) dims.push_back(tensor_dim(v, d));
  t = mean ? t.mean(dims) : t.sum(dims);
  return {t, v.batched, false};
}

// lags(y, K): row t (t = K+1..T) holds y[t-1], ..., y[t-K].
Value lags(const Expr& call, const std::vector<Value>& args, bool checking) {
  if (checking) require_rank(call, args, 0, 1, "a vector");
  const int64_t k = constant_integer(call, args, 1);
  const Value& y = args[0];
  const int64_t t = y.tensor.size(tensor_dim(y, 0));
  if (k < 1 || k >= t) {
    throw ModelError(argument_span(call, 1),
                     "lags: K must be between 1 and " + std::to_string(t - 1) +
                         " (the length of y minus 1), got " + std::to_string(k));
  }
  std::vector<at::Tensor> columns;
  for (int64_t lag = 1; lag <= k; ++lag) {
    columns.push_back(y.tensor.narrow(tensor_dim(y, 0), k - lag, t - k));
  }
  return {at::stack(columns, -1), y.batched, y.integer};
}

Value gp_exp_quad_cov(const Expr& call, const std::vector<Value>& args, bool checking) {
  if (checking) {
    require_rank(call, args, 0, 1, "a vector of inputs");
    require_rank(call, args, 1, 0, "a scalar (the marginal standard deviation alpha)");
    require_rank(call, args, 2, 0, "a scalar (the length-scale rho)");
  }
  // Covariance matrices are computed in float64 whatever the model's dtype: a Gaussian
  // process's has eigenvalues far below float32's rounding of its entries, so in float32
  // its Cholesky factor fails (every transition diverges), and at N x N it is cheap.
  const Value& x = args[0];
  const at::Tensor xt = x.tensor.to(at::kDouble);
  const at::Tensor difference = xt.unsqueeze(-1) - xt.unsqueeze(-2);
  const Value squared{difference.square(), x.batched, false};
  const at::Tensor alpha = lift({args[1].tensor.to(at::kDouble), args[1].batched, false}, 2);
  const at::Tensor rho = lift({args[2].tensor.to(at::kDouble), args[2].batched, false}, 2);
  const Value scaled{lift(squared, 2), x.batched, false};
  const bool batched = x.batched || args[1].batched || args[2].batched;
  return {alpha.square() * at::exp(-0.5 * scaled.tensor / rho.square()), batched, false};
}

Value cholesky(const Expr& call, const std::vector<Value>& args, bool checking) {
  const Value& m = args[0];
  if (checking) require_rank(call, args, 0, 2, "a square matrix");
  if (m.tensor.size(-1) != m.tensor.size(-2)) {
    throw ModelError(argument_span(call, 0), "cholesky: argument must be a square matrix, got shape " +
                                                 variate::to_string(m.point_shape()));
  }
  // A matrix that is not positive definite gives NaN (a divergence for samplers), not an
  // exception, except while the model is being checked. Factored in float64 whatever the
  // model's dtype (see gp_exp_quad_cov).
  const auto [factor, info] = at::linalg_cholesky_ex(m.tensor.to(at::kDouble));
  if (checking && info.ne(0).any().item<bool>()) {
    throw ModelError(call.span, "cholesky: the matrix is not positive definite");
  }
  const at::Tensor failed = info.ne(0).reshape(Shape(info.sizes().begin(), info.sizes().end()))
                                .unsqueeze(-1).unsqueeze(-1);
  return {at::where(failed, at::full({}, NAN, factor.options()), factor), m.batched, false};
}

Value dot(const Expr& call, const std::vector<Value>& args, bool checking) {
  if (checking) {
    require_rank(call, args, 0, 1, "a vector");
    require_rank(call, args, 1, 1, "a vector");
    const int64_t n0 = args[0].point_shape()[0];
    const int64_t n1 = args[1].point_shape()[0];
    if (n0 != n1) {
      throw ModelError(call.span, "dot: vectors have different lengths (" + std::to_string(n0) +
                                      " and " + std::to_string(n1) + ")");
    }
  }
  const auto [a, b] = align({floating(args[0]), args[0].batched, false},
                            {floating(args[1]), args[1].batched, false});
  return {(a * b).sum(-1), args[0].batched || args[1].batched, false};
}

// log(sum(exp(x))) over every point dimension, or over each row of a matrix; at::logsumexp
// subtracts the maximum first, so large or very negative terms neither overflow nor vanish.
Value log_sum_exp(const Expr& call, const std::vector<Value>& args, bool rows, bool checking) {
  const Value& v = args[0];
  if (rows) {
    if (checking) require_rank(call, args, 0, 2, "a matrix");
    return {at::logsumexp(floating(v), {-1}), v.batched, false};
  }
  if (v.rank() == 0) return {floating(v), v.batched, false};
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < v.rank(); ++d) dims.push_back(tensor_dim(v, d));
  return {at::logsumexp(floating(v), dims), v.batched, false};
}

}  // namespace

bool is_function(const std::string& name) {
  return elementwise().count(name) > 0 || structural().count(name) > 0 || ode_form(name).has_value();
}

bool is_elementwise_function(const std::string& name) { return elementwise().count(name) > 0; }

std::vector<std::string> function_names() {
  std::vector<std::string> names;
  for (const auto& entry : elementwise()) names.push_back(entry.first);
  for (const auto& entry : structural()) names.push_back(entry.first);
  for (const auto& name : ode_function_names()) names.push_back(name);
  return names;
}

Value call_function(const Expr& call, const std::vector<Value>& args, bool checking) {
  for (const auto& argument : call.arguments) {
    if (argument.is_named()) {
      throw ModelError(argument.name_span, call.name + ": functions take no named arguments");
    }
  }
  const auto unary = elementwise().find(call.name);
  const size_t expected = unary != elementwise().end() ? 1 : structural().at(call.name);
  if (args.size() != expected) {
    throw ModelError(call.span, call.name + " takes " + std::to_string(expected) +
                                    " argument" + (expected == 1 ? "" : "s") + ", got " +
                                    std::to_string(args.size()));
  }
  if (unary != elementwise().end()) {
    return {unary->second(floating(args[0])), args[0].batched, false};
  }
  const std::string& f = call.name;
  if (f == "sum") return reduce(args[0], false);
  if (f == "mean") return reduce(args[0], true);
  if (f == "dot") return dot(call, args, checking);
  if (f == "colmeans") {
    if (checking) require_rank(call, args, 0, 2, "a matrix");
    return {floating(args[0]).mean(tensor_dim(args[0], 0)), args[0].batched, false};
  }
  if (f == "eye") {
    const int64_t n = constant_integer(call, args, 0);
    if (n < 1) throw ModelError(argument_span(call, 0), "eye: size must be positive, got " + std::to_string(n));
    return {at::eye(n, at::kDouble), false, false};
  }
  if (f == "cholesky") return cholesky(call, args, checking);
  if (f == "gp_exp_quad_cov") return gp_exp_quad_cov(call, args, checking);
  if (f == "log_sum_exp") return log_sum_exp(call, args, false, checking);
  if (f == "log_sum_exp_rows") return log_sum_exp(call, args, true, checking);
  if (f == "softmax" || f == "cumulative_sum") {
    if (checking) require_rank(call, args, 0, 1, "a vector");
    const at::Tensor x = floating(args[0]);
    return {f == "softmax" ? at::softmax(x, -1) : at::cumsum(x, -1), args[0].batched, false};
  }
  if (f == "transpose") {
    if (checking) require_rank(call, args, 0, 2, "a matrix");
    return {args[0].tensor.transpose(-1, -2), args[0].batched, args[0].integer};
  }
  return lags(call, args, checking);
}

}  // namespace variate::model
