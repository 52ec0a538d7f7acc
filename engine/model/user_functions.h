#pragma once
/// User functions, `function NAME(a: real, v: vector): vector = EXPR`, are inlined: after a
/// program is checked, each call of one gets the function's body with its arguments in
/// place of the parameters (Expr::operands[0]) and the declared types (Expr::types), so
/// LibTorch's evaluator, the tape's compiler and the C++ export evaluate the body where the
/// call stands, and the printer still writes the call.

#include "engine/model/ast.h"

namespace variate::model {

/// Inlines every call of a function `program` declares, in every statement but the
/// declarations. The program must have passed the checker (no recursion, arities right).
void inline_user_functions(Program& program);

}  // namespace variate::model
