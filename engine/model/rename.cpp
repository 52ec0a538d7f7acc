#include "engine/model/rename.h"

#include "engine/core/checks.h"
#include "engine/model/diagnostic.h"
#include "engine/model/lexer.h"

namespace variate::model {
namespace {

// Renames the references in one statement (and its own name when `definition`); returns
// how many references it renamed.
int rename_in_statement(Statement& statement, const std::string& from, const std::string& to, bool definition) {
  int count = 0;
  const auto name = [&](std::string& own) {
    if (definition && own == from) own = to;
  };
  if (auto* data = std::get_if<DataDecl>(&statement.node)) {
    name(data->name);
    for (auto& dim : data->dims) count += rename_references(dim, from, to);
    for (auto* bound : {&data->lower, &data->upper}) {
      if (*bound) count += rename_references(**bound, from, to);
    }
  } else if (auto* random = std::get_if<RandomStmt>(&statement.node)) {
    name(random->name);
    for (auto& dim : random->dims) count += rename_references(dim, from, to);
    for (auto& dim : random->constraint_dims) count += rename_references(dim, from, to);
    count += rename_references(random->distribution, from, to);
    if (random->truncation) {
      for (auto* bound : {&random->truncation->lo, &random->truncation->hi}) {
        if (*bound) count += rename_references(**bound, from, to);
      }
    }
    if (random->bounds) {
      for (auto* bound : {&random->bounds->lower, &random->bounds->upper}) {
        if (*bound) count += rename_references(**bound, from, to);
      }
    }
  } else if (auto* assignment = std::get_if<Deterministic>(&statement.node)) {
    name(assignment->name);
    count += rename_references(assignment->value, from, to);
  } else if (auto* element = std::get_if<ElementDefinition>(&statement.node)) {
    name(element->name);
    count += rename_references(element->value, from, to);
    if (element->loop) count += rename_references(element->loop->hi, from, to);
  } else if (auto* increment = std::get_if<TargetIncrement>(&statement.node)) {
    count += rename_references(increment->value, from, to);
  }
  return count;
}

// A name with any definition or reference in the program.
bool is_used(Program& program, const std::string& name) {
  for (Statement& statement : program.statements) {
    if (statement.name() == name) return true;
  }
  // Counting references by renaming a name to itself leaves the tree as it was.
  for (Statement& statement : program.statements) {
    if (rename_in_statement(statement, name, name, false) > 0) return true;
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
  int count = 0;
  if (expr.kind == ExprKind::name && expr.name == from) {
    expr.name = to;
    ++count;
  }
  // A call's own name is a function or distribution, never a node.
  for (Expr& operand : expr.operands) count += rename_references(operand, from, to);
  for (Argument& argument : expr.arguments) count += rename_references(argument.value, from, to);
  return count;
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
  for (Statement& statement : program.statements) rename_in_statement(statement, from, to, true);
}

}  // namespace variate::model
