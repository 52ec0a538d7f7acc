#pragma once
/// What the canvas knows of the model text at one moment: its syntax tree (for edits) and,
/// when the text checks, the engine's graph view as plain Qt values (for drawing). Built
/// from the document's text after every change: the text is the one source of truth.

#include <memory>
#include <optional>

#include <QList>
#include <QString>
#include <QStringList>

#include "engine/model/ast.h"

namespace variate::ui {

struct CanvasNode {
  /// Function: a user function, `function f(x: real): real = EXPR`; its signature is the
  /// declared type, its body the expression; its edges go to what calls it.
  enum class Kind { Data, Observed, Latent, TransformedData, Derived, Network, LogDensity, Function };
  QString id;
  Kind kind = Kind::Data;
  /// "real[J]", "int", "ordered[K]", a function's "(x: real): real"; empty for nodes
  /// without a declared type.
  QString declaredType;
  QStringList sizes;  // declared size texts: {"N", "K"}
  /// Dimensions of its value where the text alone fixes them; nullopt where data shapes
  /// or broadcasting decide (CheckedModel::rank_of).
  std::optional<int> rank;
  model::Constraint constraint = model::Constraint::none;  // `x: ordered[K] ~ ...`
  bool declaredData = false;   // has a `data` statement
  bool integerData = false;    // declared `int`
  QString distribution;        // "Normal"; empty without `~`
  QStringList parameters;      // the parameters the call binds, in order: {"mu", "sigma"}
  QStringList arguments;       // their argument texts: {"theta", "sigma"}
  QString distributionText;    // "Normal(theta, sigma)"
  QString expression;          // for `=` nodes, recurrences, `target +=` terms and a function's body
  /// A network's layers as the call gives them: "mlp 20 → 400 → 784, relu" (the input
  /// width where the input's declared sizes fix it).
  QString network;
  QList<qint64> layerWidths;   // the same widths, input first when known
  QString guideText;           // a latent's guide: "Normal(encoder[:, 1:20], ...)"
  QStringList plates;          // plate ids, outermost first
  int programIndex = 0;        // position of its first statement

  bool isDeterministic() const {
    return kind == Kind::TransformedData || kind == Kind::Derived || kind == Kind::Network;
  }
  bool hasDistribution() const { return !distribution.isEmpty(); }
};

struct CanvasEdge {
  QString from;
  QString to;
  QStringList roles;  // "mu", "value", "index", "size", "component.sigma", a function's "call"
  /// Read only by the target's guide (`guide z ~ Normal(encoder[...], ...)`): the
  /// variational side of the model, not the generative one.
  bool guide = false;
  /// An observed variable's data read by a node that its own distribution reads (arma11's
  /// `y -> nu -> y`, where nu[t] reads y[t - 1]): the read of known values closes no cycle
  /// of evaluation, and is drawn back up the graph.
  bool feedback = false;
  /// Drawn: size-only edges are shown by the plates instead.
  bool drawn() const { return roles != QStringList{"size"}; }
};

struct CanvasPlate {
  QString id;      // "N", "N/K"
  QString size;    // "K - 1"
  QString parent;  // "" at top level
};

class ModelSnapshot {
 public:
  /// An empty model.
  ModelSnapshot();
  static ModelSnapshot fromText(const QString& text);

  /// The text parsed and checked without errors.
  bool ok() const { return error_.isEmpty(); }
  /// The first error, located: "line 3, column 5: undefined name 'ta'".
  const QString& error() const { return error_; }
  const QString& text() const { return text_; }
  /// The parsed program (statements that parsed, comments attached).
  const model::Program& program() const { return *program_; }

  const QList<CanvasNode>& nodes() const { return nodes_; }
  const QList<CanvasEdge>& edges() const { return edges_; }
  const QList<CanvasPlate>& plates() const { return plates_; }
  const CanvasNode* node(const QString& id) const;
  const CanvasPlate* plate(const QString& id) const;
  QStringList nodeIds() const;

 private:
  QString text_;
  QString error_;
  std::shared_ptr<const model::Program> program_;
  QList<CanvasNode> nodes_;
  QList<CanvasEdge> edges_;
  QList<CanvasPlate> plates_;
};

/// Parses and checks a model text: "" when it has no errors, else its first error located
/// as "line L, column C: message".
QString firstModelError(const QString& text);

/// "a scalar", "a vector", "a matrix", "an array" for a value of `rank` dimensions.
QString rankText(int rank);
/// What a node's value is, as its tooltip says: "a vector, ordered"; "" when unknown.
QString valueText(const CanvasNode& node);

}  // namespace variate::ui
