#pragma once
/// Ops for the expressions of the model language: arithmetic with NumPy broadcasting,
/// the elementwise functions, reductions, matrix products and the matrix functions.
/// Each takes operand slots and returns the slot of its result; at least one operand is
/// varying (the compiler folds data-only expressions with LibTorch when the data is
/// bound). Semantics follow the LibTorch path (model/functions.cpp) exactly: the same
/// formulas and thresholds (softplus returns x above 20, as at::softplus does), the same
/// gradient at kinks (abs'(0) = 0).

#include <string>
#include <vector>

#include "engine/model/ast.h"
#include "engine/tape/program/builder.h"

namespace variate::tape {

/// exp log log1p expm1 sqrt square abs inv_logit logit softplus tanh lgamma, and for
/// truncations log_ndtr and atan.
/// @throws Unsupported for a name that is not one of them.
Slot emit_unary(ProgramBuilder& builder, const std::string& function, const Slot& x);
/// Whether emit_unary has a kernel for `function`.
bool has_unary_kernel(const std::string& function);

Slot emit_negate(ProgramBuilder& builder, const Slot& x);

/// + - * / ^ with broadcasting (`^` of reals, as at::pow), and the comparisons and
/// && || (1 or 0, no gradient). @matmul goes to emit_matmul.
Slot emit_arithmetic(ProgramBuilder& builder, model::BinaryOp op, const Slot& a, const Slot& b);

/// `condition ? if_true : if_false` elementwise with broadcasting; the gradient flows
/// through the branch picked. The condition is read as non-zero or zero.
Slot emit_conditional(ProgramBuilder& builder, const Slot& condition, const Slot& if_true,
                      const Slot& if_false);

/// `a @ b`: matrix-vector [m, k] @ [k] -> [m], vector-matrix [k] @ [k, n] -> [n],
/// matrix-matrix, and vector-vector (a dot product), as at::matmul.
Slot emit_matmul(ProgramBuilder& builder, const Slot& a, const Slot& b);

/// sum mean dot colmeans cholesky gp_exp_quad_cov lags eye transpose log_sum_exp
/// log_sum_exp_rows softmax cumulative_sum, and the unary functions, by
/// the names and argument orders of model/functions.cpp.
/// @throws Unsupported for a function without a kernel.
Slot emit_call(ProgramBuilder& builder, const std::string& function,
               const std::vector<Slot>& arguments);

// The functions emit_call dispatches to, for callers that know which they want. Each
// @throws Unsupported for shapes functions.cpp rejects.

/// Sum or mean of every element (a scalar is returned as it is).
Slot emit_sum(ProgramBuilder& builder, const Slot& x);
Slot emit_mean(ProgramBuilder& builder, const Slot& x);
/// dot(a, b) of two vectors of one length.
Slot emit_dot(ProgramBuilder& builder, const Slot& a, const Slot& b);
/// colmeans(X): the mean of each column of a matrix.
Slot emit_colmeans(ProgramBuilder& builder, const Slot& x);
/// The lower Cholesky factor of a square matrix (its lower triangle is read); the sweep
/// fails where the matrix is not positive definite.
Slot emit_cholesky(ProgramBuilder& builder, const Slot& a);
/// alpha^2 exp(-0.5 (x[i] - x[j])^2 / rho^2) for a vector x and scalars alpha and rho.
Slot emit_gp_exp_quad_cov(ProgramBuilder& builder, const Slot& x, const Slot& alpha,
                          const Slot& rho);
/// lags(y, K) for a vector y and a constant integer K: row t holds y[t+K-1], ..., y[t].
Slot emit_lags(ProgramBuilder& builder, const Slot& y, const Slot& k);
/// eye(n) for a constant integer n: a constant.
Slot emit_eye(ProgramBuilder& builder, const Slot& n);
/// transpose(M) of a matrix: a gather.
Slot emit_transpose(ProgramBuilder& builder, const Slot& x);
/// log(sum(exp(x))) over every element, stably (a scalar is returned as it is).
Slot emit_log_sum_exp(ProgramBuilder& builder, const Slot& x);
/// One log_sum_exp per row of a matrix.
Slot emit_log_sum_exp_rows(ProgramBuilder& builder, const Slot& x);
/// softmax(v) and cumulative_sum(v) of a vector.
Slot emit_softmax(ProgramBuilder& builder, const Slot& x);
Slot emit_cumulative_sum(ProgramBuilder& builder, const Slot& x);

}  // namespace variate::tape
