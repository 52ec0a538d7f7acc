#pragma once
/// The expressions a variable's bounds are written with, for a support that may vary with
/// the parameters: declared (`b: real<lower=L, upper=U>`), its truncation's (`T[L, U]`), or
/// for Uniform its arguments. The tape compiles them and `variate check` prints them.

#include <string>

#include "engine/core/support.h"
#include "engine/model/ast.h"

namespace variate::model {

/// Null where the text gives no bound: an open side, or a truncation's side that keeps the
/// family's own bound (an Exponential T[, a] lives on (0, a)).
struct BoundExpressions {
  const Expr* lower = nullptr;
  const Expr* upper = nullptr;
};

BoundExpressions bound_expressions(const RandomStmt& random);

/// "interval(0, 1 - a)": `support` (of the kind the variable has) with its bounds as the
/// text writes them; a side the text leaves to the family shows the support's own value.
std::string describe_bounds(const RandomStmt& random, const Support& support);

}  // namespace variate::model
