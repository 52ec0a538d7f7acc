#pragma once
/// The model language's functions for C++ models: what `exp(x)`, `sum(x)`, `lags(y, K)` or
/// `gp_exp_quad_cov(x, alpha, rho)` compute in a .vmod model, as plain functions of one
/// point's values. Exported programs call them, and they compute exactly what the
/// language does (the same tensor operations, so the same bits).
///
///   #include "engine/core/math.h"
///   at::Tensor L = vt::cholesky(vt::gp_exp_quad_cov(x, alpha, rho) + 1e-10 * vt::eye(N));
///
/// Arguments are TensorArgs (numbers, tensors, random variables); integer tensors take
/// part as float64, as in the language. Functions are qualified in use (`vt::exp`), since
/// several share a name with <cmath>.

#include <cstdint>
#include <vector>

#include <ATen/core/Tensor.h>

#include "engine/core/tensor_arg.h"

namespace variate {

// Elementwise.
at::Tensor exp(const TensorArg& x);
at::Tensor log(const TensorArg& x);
at::Tensor log1p(const TensorArg& x);
at::Tensor expm1(const TensorArg& x);
at::Tensor sqrt(const TensorArg& x);
at::Tensor square(const TensorArg& x);
at::Tensor abs(const TensorArg& x);
/// 1 / (1 + exp(-x)).
at::Tensor inv_logit(const TensorArg& x);
/// log(p / (1 - p)).
at::Tensor logit(const TensorArg& p);
/// log(1 + exp(x)).
at::Tensor softplus(const TensorArg& x);
at::Tensor tanh(const TensorArg& x);
at::Tensor lgamma(const TensorArg& x);
/// x ^ y, elementwise with broadcasting (the language's `^`).
at::Tensor pow(const TensorArg& x, const TensorArg& y);

// Reductions.
/// Sum of all elements (a scalar stays itself).
at::Tensor sum(const TensorArg& x);
/// Mean of all elements.
at::Tensor mean(const TensorArg& x);
/// Inner product of two vectors, sum(a * b).
at::Tensor dot(const TensorArg& a, const TensorArg& b);
/// Column means of a matrix [N, K] -> [K].
at::Tensor colmeans(const TensorArg& X);
/// log(sum(exp(x))) over every element, without overflow (a scalar stays itself).
at::Tensor log_sum_exp(const TensorArg& x);
/// log_sum_exp of each row of a matrix [N, K] -> [N]. @throws ArgumentError unless a matrix.
at::Tensor log_sum_exp_rows(const TensorArg& X);

// Vectors.
/// exp(x) / sum(exp(x)) of a vector. @throws ArgumentError unless a vector.
at::Tensor softmax(const TensorArg& x);
/// The running sums of a vector. @throws ArgumentError unless a vector.
at::Tensor cumulative_sum(const TensorArg& x);
/// The language's `[a, b, ...]`: items of one shape (scalars, or the rows of a matrix)
/// stacked along a new first dimension, in the widest of their types (integers stay
/// integers). @throws ArgumentError for no items or items of different shapes.
at::Tensor vector_of(const std::vector<at::Tensor>& items);
/// The language's `c ? a : b`, elementwise with broadcasting: a where c is not 0, else b;
/// in float64 unless a and b are both integers.
at::Tensor where(const at::Tensor& c, const at::Tensor& a, const at::Tensor& b);

// Matrices.
/// The n x n identity (float64). @throws ArgumentError unless n >= 1.
at::Tensor eye(int64_t n);
/// The lower Cholesky factor. A matrix that is not positive definite gives NaN entries
/// (a divergence to samplers) when argument validation is off, as it is while sampling.
/// @throws ArgumentError for a non-square matrix, or (with validation on) one that is
/// not positive definite.
at::Tensor cholesky(const TensorArg& M);
/// The squared-exponential covariance of inputs x [N]:
/// alpha^2 exp(-(x_i - x_j)^2 / (2 rho^2)), as Stan's gp_exp_quad_cov.
at::Tensor gp_exp_quad_cov(const TensorArg& x, const TensorArg& alpha, const TensorArg& rho);
/// The (T - K) x K matrix whose row for time t (t = K+1..T, 1-based) holds y[t-1], ...,
/// y[t-K]; integer y stays integer. @throws ArgumentError unless y is a vector and
/// 1 <= K < T.
at::Tensor lags(const at::Tensor& y, int64_t K);
/// M with rows and columns swapped; integer M stays integer. @throws ArgumentError unless a
/// matrix.
at::Tensor transpose(const at::Tensor& M);

}  // namespace variate
