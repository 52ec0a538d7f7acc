#pragma once
/// The canvas's edits of a model, made on its syntax tree (never on the text with
/// patterns): add, connect, set a distribution or an argument, resize, retype, rename,
/// remove, paste. Each changes a Program in place or throws EditError with a message for
/// the user, leaving the program unusable (callers edit a copy). The text is then the
/// printer's canonical form of the program, with its comments.

#include <stdexcept>
#include <vector>

#include <QHash>
#include <QString>
#include <QStringList>

#include "engine/model/ast.h"

namespace variate::ui {

struct FamilyInfo;

class EditError : public std::runtime_error {
 public:
  explicit EditError(const QString& message) : std::runtime_error(message.toStdString()) {}
  QString message() const { return QString::fromStdString(what()); }
};

namespace edits {

/// One expression in the model language. @throws EditError with the parser's message.
model::Expr parseExpression(const QString& text);
/// A comma-separated list of sizes ("N, K"); empty text gives none.
std::vector<model::Expr> parseSizes(const QString& text);

/// Every name a statement defines, in program order.
QStringList definedNames(const model::Program& program);
/// `stem` when unused, else stem2, stem3, ... (avoiding `reserved` too).
QString freshName(const model::Program& program, const QString& stem, const QStringList& reserved = {});

void addDataNode(model::Program& program, const QString& name, bool integer);
void addRandomNode(model::Program& program, const QString& name, const QString& call);
void addDeterministicNode(model::Program& program, const QString& name, const QString& expression);
/// `function NAME(x: real): real = x`, after the other functions at the top.
void addFunction(model::Program& program, const QString& name);

/// Sets the argument of `parameter` in the node's distribution call.
void setArgument(model::Program& program, const QString& node, const QString& parameter,
                 const QString& expression);
/// Changes the family, keeping the arguments of parameters the families share. A data
/// node without a distribution gets one (it becomes observed); "" removes a data node's.
void setDistribution(model::Program& program, const QString& node, const QString& family);
/// Switches the call to another parameterization of its family (Poisson's log_rate).
void setParameterization(model::Program& program, const QString& node, int parameterization);
/// An `=` node's expression, or a function's body.
void setExpression(model::Program& program, const QString& node, const QString& expression);
/// The sizes a data declaration or a random variable declares (its plates).
void setSizes(model::Program& program, const QString& node, const QString& sizes);
void setDataType(model::Program& program, const QString& node, bool integer);
void renameNode(model::Program& program, const QString& from, const QString& to);
/// Removes every statement of the nodes. Refused while other nodes read them (or call a
/// function among them).
void removeNodes(model::Program& program, const QStringList& nodes);
/// Resets the arguments of `to` that are just `from` to their defaults. Refused when
/// `from` is read inside an expression (an edit of that expression removes it).
void disconnect(model::Program& program, const QString& from, const QString& to);

/// The statements of `nodes` as model text, one per line (what copy puts on the clipboard).
QString statementsText(const model::Program& program, const QStringList& nodes);
/// Adds the statements of a model text, renaming its nodes that collide with the model's
/// (references inside the pasted text follow). Returns old name -> new name for every
/// pasted node. @throws EditError for text that is not model statements.
QHash<QString, QString> paste(model::Program& program, const QString& text);

/// The canonical text of a program.
QString printed(const model::Program& program);

}  // namespace edits

}  // namespace variate::ui
