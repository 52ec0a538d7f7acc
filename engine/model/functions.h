#pragma once
/// The functions model expressions may call: elementwise maths, reductions, and the
/// matrix helpers the reference models need. Each works on single points and on batches.

#include <string>
#include <vector>

#include "engine/model/ast.h"
#include "engine/model/value.h"

namespace variate::model {

/// Whether `name` is a function (as opposed to a distribution or an unknown name).
bool is_function(const std::string& name);

/// Whether `name` is a function applied to each element on its own (exp, log, ...).
bool is_elementwise_function(const std::string& name);

/// Names of all functions, for "did you mean" messages and the canvas palette.
std::vector<std::string> function_names();

/// Calls function `call.name` on evaluated arguments.
/// @throws ModelError pointing at the call or the offending argument: wrong argument
/// count, named arguments, wrong shapes (when `checking`).
Value call_function(const Expr& call, const std::vector<Value>& arguments, bool checking);

}  // namespace variate::model
