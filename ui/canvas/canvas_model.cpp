#include "ui/canvas/canvas_model.h"

#include <memory>

#include <QUndoStack>

#include "ui/canvas/add_node_command.h"
#include "ui/canvas/connect_nodes_command.h"
#include "ui/canvas/delete_nodes_command.h"
#include "ui/canvas/disconnect_nodes_command.h"
#include "ui/canvas/edit_node_command.h"
#include "ui/canvas/move_nodes_command.h"
#include "ui/canvas/paste_nodes_command.h"
#include "ui/canvas/rename_node_command.h"
#include "ui/canvas/edge_item.h"
#include "ui/canvas/layered_layout.h"
#include "ui/canvas/node_item.h"
#include "ui/canvas/plate_geometry.h"
#include "ui/canvas/program_edits.h"
#include "ui/document/project_document.h"

namespace variate::ui {

CanvasModel::CanvasModel(ProjectDocument* document, QObject* parent) : QObject(parent), document_(document) {
  loadLayout();
  rebuild();
  connect(document_->modelDocument(), &QTextDocument::contentsChanged, this, &CanvasModel::rebuild);
  // A save stores the text as a version: the layout goes with it.
  connect(document_->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) {
    if (clean) saveLayout();
  });
}

QSizeF CanvasModel::nodeSize(const QString& id) const {
  const CanvasNode* node = shown_.node(id);
  if (!node) return {};
  const auto it = diagnostics_.find(id);
  return NodeItem::bodySize(*node, it == diagnostics_.end() ? nullptr : &*it);
}

void CanvasModel::setSelection(const QStringList& nodes) {
  if (nodes == selection_) return;
  selection_ = nodes;
  emit selectionChanged(selection_);
}

void CanvasModel::rebuild() {
  const QString text = document_->modelText();
  if (built_ && text == snapshot_.text()) return;
  built_ = true;
  snapshot_ = ModelSnapshot::fromText(text);
  if (snapshot_.ok()) {
    shown_ = snapshot_;
    placeNewNodes();
    QStringList kept;
    for (const QString& id : selection_) {
      if (shown_.node(id)) kept << id;
    }
    setSelection(kept);
  }
  emit snapshotChanged();
}

// Nodes without a place: all of them for a model opened from text, which gets the layered
// layout; otherwise the new ones, put where the layout of the whole graph would put them
// relative to the nodes already placed, and moved right until they overlap nothing.
void CanvasModel::placeNewNodes() {
  QStringList missing;
  for (const auto& node : shown_.nodes()) {
    if (!layout_.contains(node.id)) missing << node.id;
  }
  if (missing.isEmpty()) return;
  const NodePositions computed = computedLayout();
  QList<PlateNesting> plates;
  for (const auto& plate : shown_.plates()) plates << PlateNesting{plate.id, plate.parent};
  if (missing.size() == shown_.nodes().size()) {
    layout_.merge(computed);
    return;
  }
  QPointF offset;
  QHash<QString, QRectF> bodies;
  QHash<QString, QStringList> membership;
  for (const auto& node : shown_.nodes()) {
    if (missing.contains(node.id)) continue;
    const QPointF at = layout_.position(node.id);
    offset += at - computed.value(node.id);
    const QSizeF size = nodeSize(node.id);
    bodies.insert(node.id, QRectF(at - QPointF(size.width() / 2, size.height() / 2), size));
    membership.insert(node.id, node.plates);
  }
  offset /= bodies.size();
  const auto boxes = plateBoxes(plates, bodies, membership);
  NodePositions added;
  for (const QString& id : missing) {
    // Clear of every node, and of the plates the new node is not in.
    QList<QRectF> taken = bodies.values();
    const QStringList own = shown_.node(id)->plates;
    for (auto it = boxes.begin(); it != boxes.end(); ++it) {
      if (!own.contains(it.key())) taken << it.value();
    }
    const QSizeF size = nodeSize(id);
    QPointF at = computed.value(id) + offset;
    auto box = [&] { return QRectF(at - QPointF(size.width() / 2, size.height() / 2), size).adjusted(-20, -20, 20, 20); };
    for (int tries = 0; tries < 1000; ++tries) {
      bool free = true;
      for (const QRectF& r : taken) free = free && !r.intersects(box());
      if (free) break;
      at.rx() += size.width() / 2 + 20;
    }
    bodies.insert(id, box().adjusted(20, 20, -20, -20));
    added.insert(id, at);
  }
  layout_.merge(added);
}

NodePositions CanvasModel::computedLayout() const {
  QList<LayoutNode> nodes;
  for (const auto& node : shown_.nodes()) nodes << LayoutNode{node.id, nodeSize(node.id), node.plates};
  QList<LayoutEdge> edges;
  for (const auto& edge : shown_.edges()) {
    const CanvasNode* target = shown_.node(edge.to);
    // A guide reads back up the model (x → encoder → z), and so does a node reading the data
    // of what is observed through it: the layers follow the generative side.
    if (!edge.drawn() || !target || edge.guide || edge.feedback) continue;
    edges << LayoutEdge{edge.from, edge.to, NodeItem::slotOffset(*target, EdgeItem::slotFor(edge, *target))};
  }
  QList<PlateNesting> plates;
  for (const auto& plate : shown_.plates()) plates << PlateNesting{plate.id, plate.parent};
  return layeredLayout(nodes, edges, plates);
}

void CanvasModel::loadLayout() {
  QString error;
  const QByteArray json = document_->storedCanvasLayout(&error);
  if (!error.isEmpty()) {
    document_->log(tr("Cannot read the canvas layout: %1").arg(error));
    return;
  }
  if (json.isEmpty()) return;
  NodePositions positions;
  if (CanvasLayout::fromJson(json, &positions, &error)) {
    layout_.setPositions(positions);
  } else {
    document_->log(error);
  }
}

bool CanvasModel::saveLayout(QString* error) {
  QString problem;
  if (document_->storeCanvasLayout(layout_.toJson(shown_.nodeIds()), &problem)) return true;
  if (error) *error = problem;
  return false;
}

void CanvasModel::applyText(const QString& text) { document_->setModelText(text); }

bool CanvasModel::push(CanvasCommand* command, const QString& error) {
  if (!command) {
    emit editRefused(error);
    return false;
  }
  QUndoStack* stack = document_->undoStack();
  if (command->changesText()) {
    stack->beginMacro(command->text());
    stack->push(command);  // its first redo sets the text: the document's step joins the macro
    stack->endMacro();
  } else {
    stack->push(command);
  }
  return true;
}

bool CanvasModel::addNode(const NodeTemplate& what, const QPointF& position, QString* name) {
  QString error;
  auto* command = AddNodeCommand::create(this, what, position, &error);
  if (command && name) *name = command->name();
  return push(command, error);
}

bool CanvasModel::connectNodes(const QString& from, const QString& to, const QString& parameter) {
  QString error;
  return push(ConnectNodesCommand::create(this, from, to, parameter, &error), error);
}

bool CanvasModel::disconnectNodes(const QString& from, const QString& to) {
  QString error;
  return push(DisconnectNodesCommand::create(this, from, to, &error), error);
}

bool CanvasModel::setArgument(const QString& node, const QString& parameter, const QString& expression) {
  QString error;
  return push(EditNodeCommand::create(this, node, NodeProperty::Argument, parameter, expression, &error), error);
}

bool CanvasModel::setDistribution(const QString& node, const QString& family) {
  QString error;
  return push(EditNodeCommand::create(this, node, NodeProperty::Distribution, {}, family, &error), error);
}

bool CanvasModel::setParameterization(const QString& node, int parameterization) {
  QString error;
  return push(EditNodeCommand::create(this, node, NodeProperty::Parameterization, {},
                                      QString::number(parameterization), &error),
              error);
}

bool CanvasModel::setExpression(const QString& node, const QString& expression) {
  QString error;
  return push(EditNodeCommand::create(this, node, NodeProperty::Expression, {}, expression, &error), error);
}

bool CanvasModel::setSizes(const QString& node, const QString& sizes) {
  QString error;
  return push(EditNodeCommand::create(this, node, NodeProperty::Sizes, {}, sizes, &error), error);
}

bool CanvasModel::setDataType(const QString& node, bool integer) {
  QString error;
  return push(EditNodeCommand::create(this, node, NodeProperty::DataType, {}, integer ? "int" : "real", &error),
              error);
}

bool CanvasModel::renameNode(const QString& from, const QString& to) {
  QString error;
  return push(RenameNodeCommand::create(this, from, to, &error), error);
}

bool CanvasModel::deleteNodes(const QStringList& nodes) {
  QString error;
  return push(DeleteNodesCommand::create(this, nodes, &error), error);
}

bool CanvasModel::moveNodes(const NodePositions& before, const NodePositions& after) {
  if (before == after || after.isEmpty()) return false;
  return push(new MoveNodesCommand(this, before, after), {});
}

bool CanvasModel::arrange() {
  const NodePositions after = computedLayout();
  NodePositions before;
  for (auto it = after.begin(); it != after.end(); ++it) before.insert(it.key(), layout_.position(it.key()));
  if (before == after) return false;
  return push(new MoveNodesCommand(this, before, after), {});
}

QString CanvasModel::copyText(const QStringList& nodes) const {
  return edits::statementsText(shown_.program(), nodes);
}

bool CanvasModel::paste(const QString& text, const NodePositions& positions, const QPointF& anchor) {
  QString error;
  return push(PasteNodesCommand::create(this, text, positions, anchor, &error), error);
}

QString CanvasModel::checkProperty(const QString& node, int property, const QString& key, const QString& value) const {
  QString error;
  auto* self = const_cast<CanvasModel*>(this);  // a command made only to be checked changes nothing
  std::unique_ptr<EditNodeCommand> command(
      EditNodeCommand::create(self, node, static_cast<NodeProperty>(property), key, value, &error));
  return command || error == CanvasCommand::nothingToChange() ? QString() : error;
}

QString CanvasModel::checkRename(const QString& from, const QString& to) const {
  QString error;
  std::unique_ptr<RenameNodeCommand> command(
      RenameNodeCommand::create(const_cast<CanvasModel*>(this), from, to, &error));
  return command || error == CanvasCommand::nothingToChange() ? QString() : error;
}

void CanvasModel::setDiagnostics(const QHash<QString, ParameterDiagnostics>& parameters) {
  diagnostics_ = diagnosticsByNode(parameters);
  emit diagnosticsChanged();
}

}  // namespace variate::ui
