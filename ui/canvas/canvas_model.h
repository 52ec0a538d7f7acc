#pragma once
/// The canvas's side of one project document: the model graph parsed from the document's
/// text (the single source of truth), where each node is drawn, the selection, the latest
/// run's diagnostics, and every canvas edit. An edit changes the syntax tree, prints it
/// canonically, checks the result with the engine and applies it to the text as one
/// undoable command on the document's stack — or refuses it with a message and leaves the
/// model as it was. A text edit rebuilds the graph; nodes that still exist keep their
/// places, new ones are placed by the layered layout.
///
///   CanvasModel canvas(document);
///   canvas.addNode({NodeTemplate::Kind::Random, "Normal"}, QPointF(0, 0));   // normal ~ Normal(0, 1)
///   canvas.renameNode("normal", "mu");
///   document->undoStack()->undo();

#include <functional>

#include <QObject>
#include <QPointF>

#include "ui/canvas/canvas_layout.h"
#include "ui/canvas/model_snapshot.h"
#include "ui/canvas/node_diagnostics.h"
#include "ui/canvas/node_template.h"

class QUndoCommand;

namespace variate::ui {

class CanvasCommand;
class ProjectDocument;

class CanvasModel : public QObject {
  Q_OBJECT

 public:
  /// Reads the layout stored with the document's newest model version.
  explicit CanvasModel(ProjectDocument* document, QObject* parent = nullptr);

  ProjectDocument* document() const { return document_; }
  /// The graph of the current text; when the text has errors, ok() is false and the
  /// canvas shows shownSnapshot(), the last text that checked.
  const ModelSnapshot& snapshot() const { return snapshot_; }
  const ModelSnapshot& shownSnapshot() const { return shown_; }
  CanvasLayout* layout() { return &layout_; }
  /// Node sizes the layout assumes (the items' bodies).
  QSizeF nodeSize(const QString& id) const;

  const QStringList& selection() const { return selection_; }
  void setSelection(const QStringList& nodes);

  // Edits. Each is one undoable step; false when refused (editRefused says why).
  bool addNode(const NodeTemplate& what, const QPointF& position, QString* name = nullptr);
  bool connectNodes(const QString& from, const QString& to, const QString& parameter);
  bool disconnectNodes(const QString& from, const QString& to);
  bool setArgument(const QString& node, const QString& parameter, const QString& expression);
  bool setDistribution(const QString& node, const QString& family);
  bool setParameterization(const QString& node, int parameterization);
  bool setExpression(const QString& node, const QString& expression);
  bool setSizes(const QString& node, const QString& sizes);
  bool setDataType(const QString& node, bool integer);
  bool renameNode(const QString& from, const QString& to);
  bool deleteNodes(const QStringList& nodes);
  /// Positions after a drag (`before` is where the nodes were).
  bool moveNodes(const NodePositions& before, const NodePositions& after);
  /// Lays the whole graph out again with the layered layout (one undoable move).
  bool arrange();
  /// The statements of `nodes`, as copy puts them on the clipboard.
  QString copyText(const QStringList& nodes) const;
  /// Pastes model statements; `positions` are the copied nodes' places (pasted ones go
  /// beside them), else they go around `anchor`.
  bool paste(const QString& text, const NodePositions& positions, const QPointF& anchor);

  /// The message a property edit would be refused with, "" when it would be accepted or
  /// change nothing (the properties panel validates as the user types).
  QString checkProperty(const QString& node, int property, const QString& key, const QString& value) const;
  QString checkRename(const QString& from, const QString& to) const;

  /// Pushes a prepared command (a text-changing one with the document's text step in one
  /// macro); false with editRefused for nullptr.
  bool push(CanvasCommand* command, const QString& error);
  /// Replaces the document's text (commands call this once, on their first redo).
  void applyText(const QString& text);

  /// A run's diagnostics by quantity ("mu", "theta[3]"); empty clears them.
  void setDiagnostics(const QHash<QString, ParameterDiagnostics>& parameters);
  const QHash<QString, NodeDiagnostics>& diagnostics() const { return diagnostics_; }

  /// Stores the layout with the project's newest version of the model when that version
  /// holds the document's text (after a save); false with a message otherwise.
  bool saveLayout(QString* error = nullptr);

 signals:
  /// The text changed: the graph was rebuilt, or the text has errors now.
  void snapshotChanged();
  void selectionChanged(const QStringList& nodes);
  void editRefused(const QString& message);
  void diagnosticsChanged();

 private:
  void rebuild();
  void placeNewNodes();
  /// Where the layered layout puts every node of the shown graph.
  NodePositions computedLayout() const;
  void loadLayout();

  ProjectDocument* document_;
  ModelSnapshot snapshot_;
  ModelSnapshot shown_;
  CanvasLayout layout_;
  QStringList selection_;
  QHash<QString, NodeDiagnostics> diagnostics_;
  bool built_ = false;
};

}  // namespace variate::ui
