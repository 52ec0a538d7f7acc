#include "ui/canvas/canvas_scene.h"

#include <algorithm>

#include <QSet>

#include "ui/canvas/canvas_model.h"
#include "ui/canvas/edge_item.h"
#include "ui/canvas/node_item.h"
#include "ui/canvas/plate_geometry.h"
#include "ui/canvas/plate_item.h"

namespace variate::ui {

CanvasScene::CanvasScene(CanvasModel* model, QObject* parent) : QGraphicsScene(parent), model_(model) {
  setItemIndexMethod(QGraphicsScene::NoIndex);  // small graphs whose items move often
  rebuild();
  connect(model_, &CanvasModel::snapshotChanged, this, &CanvasScene::rebuild);
  connect(model_, &CanvasModel::diagnosticsChanged, this, &CanvasScene::rebuild);
  connect(model_->layout(), &CanvasLayout::positionsChanged, this, &CanvasScene::applyPositions);
  connect(model_, &CanvasModel::selectionChanged, this, &CanvasScene::applySelection);
  connect(this, &QGraphicsScene::selectionChanged, this, [this] {
    if (!syncing_) model_->setSelection(selectedNodes());
  });
}

CanvasScene::~CanvasScene() {
  // Deleting the items deselects them: the model must not hear of it. They go here, while
  // this is still a CanvasScene: QGraphicsScene's destructor would delete them after this
  // part is gone, and its selectionChanged would reach the lambda above (UBSan's vptr check).
  syncing_ = true;
  clear();
  nodes_.clear();
  edges_.clear();
  plates_.clear();
}

void CanvasScene::rebuild() {
  syncing_ = true;
  clear();
  nodes_.clear();
  edges_.clear();
  plates_.clear();
  const ModelSnapshot& graph = model_->shownSnapshot();
  for (const auto& node : graph.nodes()) {
    const auto it = model_->diagnostics().find(node.id);
    auto* item = new NodeItem(node, it == model_->diagnostics().end() ? nullptr : &*it);
    item->setPos(model_->layout()->position(node.id));
    addItem(item);
    nodes_.insert(node.id, item);
  }
  for (const auto& edge : graph.edges()) {
    if (!edge.drawn() || !nodes_.contains(edge.from) || !nodes_.contains(edge.to)) continue;
    auto* item = new EdgeItem(edge, nodes_.value(edge.from), nodes_.value(edge.to));
    addItem(item);
    edges_ << item;
  }
  for (const auto& plate : graph.plates()) {
    int depth = 0;
    for (const CanvasPlate* p = &plate; p && !p->parent.isEmpty(); p = graph.plate(p->parent)) ++depth;
    auto* item = new PlateItem(plate, depth);
    addItem(item);
    plates_.insert(plate.id, item);
  }
  for (auto* item : nodes_) spreadEdgeEnds(item);
  updatePlates();
  syncing_ = false;
  applySelection();
}

// Edges that end at a node's top rather than a slot arrive side by side, in the order of
// where they come from.
void CanvasScene::spreadEdgeEnds(NodeItem* target) {
  QList<EdgeItem*> incoming;
  for (auto* edge : edges_) {
    if (edge->toItem() == target && edge->slot().isEmpty()) incoming << edge;
  }
  std::sort(incoming.begin(), incoming.end(),
            [](EdgeItem* a, EdgeItem* b) { return a->fromItem()->pos().x() < b->fromItem()->pos().x(); });
  const double spacing = 22;
  for (int i = 0; i < incoming.size(); ++i) incoming[i]->setEndOffset((i - (incoming.size() - 1) / 2.0) * spacing);
}

void CanvasScene::applyPositions() {
  for (auto it = nodes_.begin(); it != nodes_.end(); ++it) {
    if (model_->layout()->contains(it.key())) it.value()->setPos(model_->layout()->position(it.key()));
  }
}

void CanvasScene::applySelection() {
  syncing_ = true;
  for (auto it = nodes_.begin(); it != nodes_.end(); ++it) {
    it.value()->setSelected(model_->selection().contains(it.key()));
  }
  for (auto* edge : edges_) edge->setSelected(false);
  syncing_ = false;
}

QStringList CanvasScene::selectedNodes() const {
  QStringList ids;
  for (const auto& node : model_->shownSnapshot().nodes()) {
    if (nodes_.contains(node.id) && nodes_.value(node.id)->isSelected()) ids << node.id;
  }
  return ids;
}

QHash<QString, QPointF> CanvasScene::nodePositions(const QStringList& ids) const {
  QHash<QString, QPointF> positions;
  for (const QString& id : ids) {
    if (nodes_.contains(id)) positions.insert(id, nodes_.value(id)->pos());
  }
  return positions;
}

QRectF CanvasScene::graphBounds() const {
  QRectF bounds;
  for (auto* item : items()) bounds = bounds.united(item->sceneBoundingRect());
  return bounds;
}

void CanvasScene::nodeMoved(NodeItem* item) {
  if (syncing_ && edges_.isEmpty()) return;  // still building
  for (auto* edge : edges_) {
    if (edge->fromItem() == item || edge->toItem() == item) edge->updatePath();
  }
  QSet<NodeItem*> targets = {item};
  for (auto* edge : edges_) {
    if (edge->fromItem() == item) targets.insert(edge->toItem());
  }
  for (auto* target : targets) spreadEdgeEnds(target);
  updatePlates();
}

void CanvasScene::updatePlates() {
  if (plates_.isEmpty()) return;
  QList<PlateNesting> nesting;
  for (const auto& plate : model_->shownSnapshot().plates()) nesting << PlateNesting{plate.id, plate.parent};
  QHash<QString, QRectF> bodies;
  QHash<QString, QStringList> membership;
  for (auto it = nodes_.begin(); it != nodes_.end(); ++it) {
    bodies.insert(it.key(), it.value()->sceneBody());
    membership.insert(it.key(), it.value()->node().plates);
  }
  const auto boxes = plateBoxes(nesting, bodies, membership);
  for (auto it = plates_.begin(); it != plates_.end(); ++it) it.value()->setBox(boxes.value(it.key()));
}

}  // namespace variate::ui
