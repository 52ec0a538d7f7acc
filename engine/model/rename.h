#pragma once
/// Renaming a node (or a user function) of a model on its syntax tree: the statements that
/// define the name and every reference to it (a function's calls) follow, while function and distribution names,
/// named-argument labels and other names that merely contain it stay (what a regex over the text gets wrong: renaming
/// `mu` must not touch `mu_raw`, `Normal(mu = ...)` or a comment).
///
///   rename_node(program, "theta_trans", "theta_raw");
///   std::string text = to_string(program);

#include <string>

#include "engine/model/ast.h"

namespace variate::model {

/// Whether `name` can name a node: one identifier of the language (a letter or '_', then
/// letters, digits and '_'), not one of its keywords (data, real, int).
bool is_valid_name(const std::string& name);

/// Renames `from` to `to` everywhere in `program` (definitions and references). Renaming a
/// name to itself changes nothing.
/// @throws ArgumentError if `to` is not a valid name, if another node is already called
/// `to`, or if no statement defines or reads `from`.
void rename_node(Program& program, const std::string& from, const std::string& to);

/// Renames every reference to `from` in one expression (not the calls it makes); returns
/// how many it renamed.
int rename_references(Expr& expr, const std::string& from, const std::string& to);

}  // namespace variate::model
