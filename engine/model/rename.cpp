#include "engine/model/rename.h"

#include <algorithm>

#include "engine/core/checks.h"
#include "engine/model/diagnostic.h"
#include "engine/model/lexer.h"

namespace variate::model {
namespace {

// Calls `visit` on every expression of a node's statement (not a function's body, which
// reads only its arguments), and `name` on the name it defines.
template <class Visit, class Name>
void for_each_part(Statement& statement, const Visit& visit, const Name& name) {
  const auto optional = [&](std::optional<Expr>& e) {
    if (e) visit(*e);
  };
  if (auto* data = std::get_if<DataDecl>(&statement.node)) {
    name(data->name);
    for (auto& dim : data->dims) visit(dim);
    optional(data->lower);
    optional(data->upper);
  } else if (auto* random = std::get_if<RandomStmt>(&statement.node)) {
    name(random->name);
    for (auto& dim : random->dims) visit(dim);
    for (auto& dim : random->constraint_dims) visit(dim);
    visit(random->distribution);
    if (random->truncation) {
      optional(random->truncation->lo);
      optional(random->truncation->hi);
    }
    if (random->bounds) {
      optional(random->bounds->lower);
      optional(random->bounds->upper);
    }
  } else if (auto* assignment = std::get_if<Deterministic>(&statement.node)) {
    name(assignment->name);
    visit(assignment->value);
  } else if (auto* element = std::get_if<ElementDefinition>(&statement.node)) {
    name(element->name);
    visit(element->value);
    if (element->loop) visit(element->loop->hi);
  } else if (auto* increment = std::get_if<TargetIncrement>(&statement.node)) {
    visit(increment->value);
  } else if (auto* function = std::get_if<FunctionDecl>(&statement.node)) {
    name(function->name);
  }
}

// Renames the names of one kind (references, or a user function's calls) in an expression;
// returns how many.
int rename_in_expression(Expr& expr, ExprKind kind, const std::string& from, const std::string& to) {
  int count = 0;
  if (expr.kind == kind && expr.name == from) {
    expr.name = to;
    ++count;
  }
  for (Expr& operand : expr.operands) count += rename_in_expression(operand, kind, from, to);
  for (Argument& argument : expr.arguments) count += rename_in_expression(argument.value, kind, from, to);
  return count;
}

int rename_calls(Expr& expr, const std::string& from, const std::string& to) {
  return rename_in_expression(expr, ExprKind::call, from, to);
}

// Renaming a function renames its calls in other functions' bodies and the right-hand
// sides their ODE calls name, unless an argument of the same name hides it there.
int rename_in_body(FunctionDecl& function, const std::string& from, const std::string& to) {
  int count = rename_calls(function.body, from, to);
  const bool hidden = std::any_of(function.parameters.begin(), function.parameters.end(),
                                  [&](const FunctionParameter& p) { return p.name == from; });
  if (!hidden) count += rename_references(function.body, from, to);
  return count;
}

// Renames the references in one statement (and its own name when `definition`); returns
// how many references it renamed. `is_function`: `from` names a user function, whose
// calls follow (a call of anything else names the language's function or distribution).
int rename_in_statement(Statement& statement, const std::string& from, const std::string& to, bool definition,
                        bool is_function) {
  int count = 0;
  for_each_part(
      statement,
      [&](Expr& e) {
        count += rename_references(e, from, to);
        if (is_function) count += rename_calls(e, from, to);
      },
      [&](std::string& own) {
        if (definition && own == from) own = to;
      });
  if (auto* function = std::get_if<FunctionDecl>(&statement.node); function && is_function) {
    count += rename_in_body(*function, from, to);
  }
  return count;
}

bool declares_function(const Program& program, const std::string& name) {
  return std::any_of(program.statements.begin(), program.statements.end(), [&](const Statement& statement) {
    return statement.kind() == StatementKind::function && statement.name() == name;
  });
}

// A name with any definition or reference in the program (calls count for a function).
bool is_used(Program& program, const std::string& name) {
  for (Statement& statement : program.statements) {
    if (statement.name() == name) return true;
  }
  // Counting references by renaming a name to itself leaves the tree as it was.
  const bool function = declares_function(program, name);
  for (Statement& statement : program.statements) {
    if (rename_in_statement(statement, name, name, false, function) > 0) return true;
  }
  return false;
}

}  // namespace

bool is_valid_name(const std::string& name) {
  if (name.empty()) return false;
  const Source source("name", name);
  Diagnostics diagnostics;
  const std::vector<Token> tokens = tokenize(source, diagnostics);
  return !diagnostics.has_errors() && tokens.size() == 2 &&
         tokens[0].kind == TokenKind::identifier && tokens[0].text == name &&
         tokens[1].kind == TokenKind::end_of_file;
}

int rename_references(Expr& expr, const std::string& from, const std::string& to) {
  // A call's own name is a function or distribution, never a node.
  return rename_in_expression(expr, ExprKind::name, from, to);
}

void rename_node(Program& program, const std::string& from, const std::string& to) {
  if (from == to) return;
  if (!is_valid_name(to)) {
    throw ArgumentError("rename: '" + to +
                        "' is not a valid name (a letter or '_', then letters, digits or '_'; "
                        "not data, real or int)");
  }
  if (is_used(program, to)) throw ArgumentError("rename: the model already has a node named '" + to + "'");
  if (!is_used(program, from)) throw ArgumentError("rename: the model has no node named '" + from + "'");
  const bool function = declares_function(program, from);
  for (Statement& statement : program.statements) rename_in_statement(statement, from, to, true, function);
}

}  // namespace variate::model
