#pragma once
/// Canonical text of a model's syntax tree: one statement per line, spaces around binary
/// operators, `name = value` for named arguments and only the parentheses precedence needs
/// (range bounds other than names, numbers, calls and indexing are parenthesized for
/// readability: `y[(K + 1):T]`). Parsing the printed text gives back the same tree:
/// structurally_equal(parse(to_string(p)).program, p).

#include <string>

#include "engine/core/number_text.h"
#include "engine/model/ast.h"

namespace variate::model {

using variate::format_number;  // number_text.h

std::string to_string(const Expr& expr);
/// One line without comments: "theta_trans[J] ~ Normal(0, 1)".
std::string to_string(const Statement& statement);
/// The whole model with its comments and blank lines, each line ending in '\n'.
std::string to_string(const Program& program);

}  // namespace variate::model
