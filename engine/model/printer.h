#pragma once
/// Canonical text of a model's syntax tree: one statement per line, spaces around binary
/// operators, `name = value` for named arguments and only the parentheses precedence needs
/// (range bounds other than names, numbers, calls and indexing are parenthesized for
/// readability: `y[(K + 1):T]`). Parsing the printed text gives back the same tree:
/// structurally_equal(parse(to_string(p)).program, p).

#include <string>

#include "engine/model/ast.h"

namespace variate::model {

/// "2" for an integer literal; the shortest text that reads back exactly for a real,
/// always with a '.' or an exponent ("2.0", "0.1", "1e-10").
std::string format_number(double value, bool is_integer);

std::string to_string(const Expr& expr);
/// One line without comments: "theta_trans[J] ~ Normal(0, 1)".
std::string to_string(const Statement& statement);
/// The whole model with its comments and blank lines, each line ending in '\n'.
std::string to_string(const Program& program);

}  // namespace variate::model
