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

#include "variate/model/ast.h"
#include "variate/tape/builder.h"

namespace variate::tape {

/// exp log log1p expm1 sqrt square abs inv_logit logit softplus tanh lgamma.
/// @throws Unsupported for a name that is not one of them.
Slot emit_unary(ProgramBuilder& builder, const std::string& function, const Slot& x);

Slot emit_negate(ProgramBuilder& builder, const Slot& x);

/// + - * / ^ with broadcasting (`^` of reals, as at::pow). @matmul goes to emit_matmul.
Slot emit_arithmetic(ProgramBuilder& builder, model::BinaryOp op, const Slot& a, const Slot& b);

/// `a @ b`: matrix-vector [m, k] @ [k] -> [m], vector-matrix [k] @ [k, n] -> [n],
/// matrix-matrix, and vector-vector (a dot product), as at::matmul.
Slot emit_matmul(ProgramBuilder& builder, const Slot& a, const Slot& b);

/// sum mean dot colmeans cholesky gp_exp_quad_cov lags, and the unary functions, by
/// the names and argument orders of model/functions.cpp.
/// @throws Unsupported for a function without a kernel.
Slot emit_call(ProgramBuilder& builder, const std::string& function, const std::vector<Slot>& arguments);

}  // namespace variate::tape
