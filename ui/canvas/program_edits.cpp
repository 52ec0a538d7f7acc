#include "ui/canvas/program_edits.h"

#include <optional>

#include <QObject>

#include "engine/core/argument_error.h"
#include "engine/model/parser.h"
#include "engine/model/printer.h"
#include "engine/model/rename.h"

#include "ui/canvas/call_arguments.h"
#include "ui/modeling/distribution_catalog.h"

namespace variate::ui::edits {
namespace {

using model::Argument;
using model::DataDecl;
using model::Deterministic;
using model::Expr;
using model::ExprKind;
using model::Program;
using model::RandomStmt;
using model::Statement;
using model::StatementKind;

std::string str(const QString& text) { return text.toStdString(); }

// Parses a snippet of model text; its first error, if any, becomes an EditError.
Program parseSnippet(const std::string& text) {
  const model::Source source("snippet", text);
  model::ParseResult result = model::parse(source);
  for (const auto& diagnostic : result.diagnostics) {
    if (diagnostic.severity == model::Severity::error) {
      throw EditError(QString::fromStdString(diagnostic.message));
    }
  }
  return std::move(result.program);
}

template <class T>
T* statementOf(Program& program, const QString& node) {
  for (Statement& statement : program.statements) {
    if (auto* s = std::get_if<T>(&statement.node); s && statement.name() == str(node)) return s;
  }
  return nullptr;
}

RandomStmt& distributionOf(Program& program, const QString& node) {
  auto* random = statementOf<RandomStmt>(program, node);
  if (!random) throw EditError(QObject::tr("'%1' has no distribution").arg(node));
  return *random;
}

const FamilyInfo& familyOf(const QString& name) {
  const FamilyInfo* family = catalog::find(name);
  if (!family) throw EditError(QObject::tr("unknown distribution '%1'").arg(name));
  return *family;
}

// Reads a node, or calls a function (a user function's name is no node's).
bool reads(const Expr& e, const std::string& name) {
  if ((e.kind == ExprKind::name || e.kind == ExprKind::call) && e.name == name) return true;
  for (const auto& operand : e.operands) {
    if (reads(operand, name)) return true;
  }
  for (const auto& argument : e.arguments) {
    if (reads(argument.value, name)) return true;
  }
  return false;
}

bool reads(const Statement& statement, const std::string& name) {
  auto any = [&](const std::vector<Expr>& list) {
    for (const auto& e : list) {
      if (reads(e, name)) return true;
    }
    return false;
  };
  if (const auto* data = statement.as<DataDecl>()) {
    return any(data->dims) || (data->lower && reads(*data->lower, name)) || (data->upper && reads(*data->upper, name));
  }
  if (const auto* random = statement.as<RandomStmt>()) {
    const auto bound = [&](const std::optional<Expr>& e) { return e && reads(*e, name); };
    const bool in_truncation = random->truncation && (bound(random->truncation->lo) || bound(random->truncation->hi));
    const bool in_bounds = random->bounds && (bound(random->bounds->lower) || bound(random->bounds->upper));
    return any(random->dims) || any(random->constraint_dims) || reads(random->distribution, name) || in_truncation ||
           in_bounds;
  }
  if (const auto* element = statement.as<model::ElementDefinition>()) {
    return reads(element->value, name) || (element->loop && reads(element->loop->hi, name));
  }
  if (const auto* increment = statement.as<model::TargetIncrement>()) return reads(increment->value, name);
  if (const auto* function = statement.as<model::FunctionDecl>()) return reads(function->body, name);
  return reads(std::get<Deterministic>(statement.node).value, name);
}

// Functions stay together at the top, then data declarations; everything else goes at the
// end, a blank line separating it from the declarations as in the example models.
void insertStatement(Program& program, Statement statement) {
  auto& list = program.statements;
  if (statement.kind() == StatementKind::function) {  // after the last function, else first
    size_t at = 0;
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i].kind() == StatementKind::function) at = i + 1;
    }
    if (at < list.size() && list[at].kind() != StatementKind::function) list[at].blank_line_before = true;
    statement.blank_line_before = at > 0 && list[at - 1].kind() != StatementKind::function;
    list.insert(list.begin() + static_cast<std::ptrdiff_t>(at), std::move(statement));
    return;
  }
  if (statement.kind() == StatementKind::data) {
    size_t at = 0;
    while (at < list.size() && list[at].kind() == StatementKind::function) ++at;
    for (size_t i = at; i < list.size(); ++i) {
      if (list[i].kind() == StatementKind::data) at = i + 1;
    }
    statement.blank_line_before = at > 0 && list[at - 1].kind() == StatementKind::function;
    if (at < list.size() && list[at].kind() != StatementKind::data) list[at].blank_line_before = true;
    list.insert(list.begin() + static_cast<std::ptrdiff_t>(at), std::move(statement));
    return;
  }
  statement.blank_line_before =
      !list.empty() && (list.back().kind() == StatementKind::data || list.back().kind() == StatementKind::function);
  list.push_back(std::move(statement));
}

Statement makeStatement(decltype(Statement::node) node) {
  Statement statement;
  statement.node = std::move(node);
  return statement;
}

void requireNewName(const Program& program, const QString& name) {
  if (!model::is_valid_name(str(name))) throw EditError(QObject::tr("'%1' is not a valid name").arg(name));
  if (definedNames(program).contains(name)) {
    throw EditError(QObject::tr("the model already has a node named '%1'").arg(name));
  }
}

}  // namespace

Expr parseExpression(const QString& text) {
  if (text.contains('\n') || text.contains('#')) throw EditError(QObject::tr("expected one expression on one line"));
  Program program = parseSnippet("__value = " + str(text) + "\n");
  if (program.statements.size() != 1 || program.statements[0].kind() != StatementKind::deterministic) {
    throw EditError(QObject::tr("expected one expression"));
  }
  return std::get<Deterministic>(program.statements[0].node).value;
}

std::vector<Expr> parseSizes(const QString& text) {
  if (text.trimmed().isEmpty()) return {};
  if (text.contains('\n') || text.contains('#')) throw EditError(QObject::tr("expected sizes such as N, K"));
  Program program = parseSnippet("data __sizes: real[" + str(text) + "]\n");
  if (program.statements.size() != 1 || program.statements[0].kind() != StatementKind::data) {
    throw EditError(QObject::tr("expected sizes such as N, K"));
  }
  return std::get<DataDecl>(program.statements[0].node).dims;
}

QStringList definedNames(const Program& program) {
  QStringList names;
  for (const auto& statement : program.statements) {
    const QString name = QString::fromStdString(statement.name());
    if (!names.contains(name)) names << name;
  }
  return names;
}

QString freshName(const Program& program, const QString& stem, const QStringList& reserved) {
  const QStringList taken = definedNames(program) + reserved;
  if (!taken.contains(stem)) return stem;
  for (int i = 2;; ++i) {
    const QString name = stem + QString::number(i);
    if (!taken.contains(name)) return name;
  }
}

void addDataNode(Program& program, const QString& name, bool integer) {
  requireNewName(program, name);
  DataDecl data;
  data.name = str(name);
  data.type = integer ? model::BaseType::integer : model::BaseType::real;
  insertStatement(program, makeStatement(std::move(data)));
}

void addRandomNode(Program& program, const QString& name, const QString& call) {
  requireNewName(program, name);
  RandomStmt random;
  random.name = str(name);
  random.distribution = parseExpression(call);
  insertStatement(program, makeStatement(std::move(random)));
}

void addDeterministicNode(Program& program, const QString& name, const QString& expression) {
  requireNewName(program, name);
  Deterministic assignment;
  assignment.name = str(name);
  assignment.value = parseExpression(expression);
  insertStatement(program, makeStatement(std::move(assignment)));
}

void addFunction(Program& program, const QString& name) {
  requireNewName(program, name);
  Program parsed = parseSnippet("function " + str(name) + "(x: real): real = x\n");
  insertStatement(program, std::move(parsed.statements.front()));
}

void setArgument(Program& program, const QString& node, const QString& parameter, const QString& expression) {
  RandomStmt& random = distributionOf(program, node);
  const FamilyInfo& family = familyOf(QString::fromStdString(random.distribution.name));
  const auto binding = calls::bind(family, random.distribution);
  if (!binding) throw EditError(QObject::tr("'%1' has arguments %2 does not take").arg(node, family.name));
  const auto& parameters = family.parameterizations[binding->parameterization];
  for (int p = 0; p < parameters.size(); ++p) {
    if (parameters[p].name != parameter) continue;
    Expr value = parseExpression(expression);
    if (parameters[p].isDistribution && value.kind != ExprKind::call) {
      throw EditError(QObject::tr("the %1 of %2 must be a distribution, such as Normal(mu, sigma)")
                          .arg(parameter, family.name));
    }
    random.distribution.arguments[binding->argumentOf[p]].value = std::move(value);
    return;
  }
  throw EditError(QObject::tr("%1 has no parameter '%2' here; it takes %3").arg(family.name, parameter, family.signature));
}

void setDistribution(Program& program, const QString& node, const QString& family) {
  auto* random = statementOf<RandomStmt>(program, node);
  const bool isData = statementOf<DataDecl>(program, node) != nullptr;
  if (family.isEmpty()) {
    if (!random) return;
    if (!isData) throw EditError(QObject::tr("'%1' needs a distribution: only data may have none").arg(node));
    auto& list = program.statements;
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i].kind() == StatementKind::random && list[i].name() == str(node)) {
        list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
    }
    return;
  }
  const FamilyInfo& info = familyOf(family);
  if (!random) {
    if (!isData && !statementOf<Deterministic>(program, node)) {
      throw EditError(QObject::tr("the model has no node named '%1'").arg(node));
    }
    RandomStmt added;
    added.name = str(node);
    added.distribution = parseExpression(info.defaultCall());
    insertStatement(program, makeStatement(std::move(added)));
    return;
  }
  random->distribution = calls::rebuildCall(info, 0, random->distribution);
  // `b: real<lower=L, upper=U>` is flat on its bounds; another family keeps them as its
  // truncation, `b ~ Normal(...) T[L, U]`.
  if (random->bounds && random->distribution.name != "Flat") {
    if (random->bounds->lower || random->bounds->upper) {
      random->truncation = model::Truncation{random->bounds->span, random->bounds->lower, random->bounds->upper};
    }
    random->bounds.reset();
  }
}

void setParameterization(Program& program, const QString& node, int parameterization) {
  RandomStmt& random = distributionOf(program, node);
  const FamilyInfo& family = familyOf(QString::fromStdString(random.distribution.name));
  if (parameterization < 0 || parameterization >= family.parameterizations.size()) {
    throw EditError(QObject::tr("%1 has no parameterization %2").arg(family.name).arg(parameterization));
  }
  random.distribution = calls::rebuildCall(family, parameterization, random.distribution);
}

void setExpression(Program& program, const QString& node, const QString& expression) {
  if (auto* function = statementOf<model::FunctionDecl>(program, node)) {
    function->body = parseExpression(expression);
    return;
  }
  auto* assignment = statementOf<Deterministic>(program, node);
  if (!assignment) throw EditError(QObject::tr("'%1' is not defined by an expression").arg(node));
  assignment->value = parseExpression(expression);
}

void setSizes(Program& program, const QString& node, const QString& sizes) {
  auto dims = parseSizes(sizes);
  if (auto* data = statementOf<DataDecl>(program, node)) {
    data->dims = std::move(dims);
    return;
  }
  auto* random = statementOf<RandomStmt>(program, node);
  if (!random) throw EditError(QObject::tr("'%1' declares no sizes: its value's shape follows its expression").arg(node));
  if (random->constraint != model::Constraint::none) {
    if (dims.size() != 1) {
      throw EditError(QObject::tr("%1 takes one size").arg(model::constraint_name(random->constraint)));
    }
    random->constraint_dims = std::move(dims);
    return;
  }
  random->dims = std::move(dims);
}

void setDataType(Program& program, const QString& node, bool integer) {
  auto* data = statementOf<DataDecl>(program, node);
  if (!data) throw EditError(QObject::tr("'%1' is not data").arg(node));
  data->type = integer ? model::BaseType::integer : model::BaseType::real;
}

void renameNode(Program& program, const QString& from, const QString& to) {
  try {
    model::rename_node(program, str(from), str(to));
  } catch (const ArgumentError& e) {
    QString message = QString::fromUtf8(e.what());
    if (message.startsWith("rename: ")) message = message.mid(8);
    throw EditError(message);
  }
}

void removeNodes(Program& program, const QStringList& nodes) {
  auto& list = program.statements;
  for (size_t i = list.size(); i-- > 0;) {
    if (!nodes.contains(QString::fromStdString(list[i].name()))) continue;
    const bool blank = list[i].blank_line_before;
    list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
    if (blank && i < list.size()) list[i].blank_line_before = true;
  }
  if (!list.empty()) list.front().blank_line_before = false;
  for (const QString& node : nodes) {
    QStringList readers;
    for (const auto& statement : list) {
      const QString name = QString::fromStdString(statement.name());
      if (reads(statement, str(node)) && !readers.contains(name)) readers << name;
    }
    if (!readers.isEmpty()) {
      throw EditError(QObject::tr("'%1' is read by %2; change or delete %3 first")
                          .arg(node, readers.join(", "), readers.size() == 1 ? "it" : "them"));
    }
  }
}

void disconnect(Program& program, const QString& from, const QString& to) {
  auto* random = statementOf<RandomStmt>(program, to);
  int reset = 0;
  if (random) {
    const FamilyInfo& family = familyOf(QString::fromStdString(random->distribution.name));
    if (const auto binding = calls::bind(family, random->distribution)) {
      const auto& parameters = family.parameterizations[binding->parameterization];
      for (int p = 0; p < parameters.size(); ++p) {
        Expr& value = random->distribution.arguments[binding->argumentOf[p]].value;
        if (value.kind == ExprKind::name && value.name == str(from)) {
          value = parseExpression(parameters[p].defaultText);
          ++reset;
        }
      }
    }
  }
  for (const auto& statement : program.statements) {
    if (statement.name() == str(to) && reads(statement, str(from))) {
      throw EditError(QObject::tr("'%1' is part of an expression of '%2': edit it in the properties panel")
                          .arg(from, to));
    }
  }
  if (reset == 0) throw EditError(QObject::tr("'%1' does not read '%2'").arg(to, from));
}

QString statementsText(const Program& program, const QStringList& nodes) {
  QString text;
  for (const auto& statement : program.statements) {
    if (nodes.contains(QString::fromStdString(statement.name()))) {
      text += QString::fromStdString(model::to_string(statement)) + "\n";
    }
  }
  return text;
}

QHash<QString, QString> paste(Program& program, const QString& text) {
  Program pasted = parseSnippet(str(text));
  if (pasted.statements.empty()) throw EditError(QObject::tr("the clipboard holds no model statements"));
  QHash<QString, QString> names;
  const QStringList incoming = definedNames(pasted);
  QStringList reserved = incoming;
  for (const QString& name : incoming) {
    QString target = name;
    if (definedNames(program).contains(name)) {
      target = freshName(program, name, reserved);
      renameNode(pasted, name, target);
      reserved << target;
    }
    names[name] = target;
  }
  for (auto& statement : pasted.statements) {
    statement.comments_before.clear();
    statement.comment_after.reset();
    insertStatement(program, std::move(statement));
  }
  return names;
}

QString printed(const Program& program) { return QString::fromStdString(model::to_string(program)); }

}  // namespace variate::ui::edits
