#pragma once
/// The items of the model graph — nodes, edges and plates — built from a CanvasModel and
/// kept in step with it: rebuilt when the text changes, moved when positions change,
/// selected as the model's selection says (and the other way round).

#include <QGraphicsScene>
#include <QHash>

namespace variate::ui {

class CanvasModel;
class EdgeItem;
class NodeItem;
class PlateItem;

class CanvasScene : public QGraphicsScene {
  Q_OBJECT

 public:
  explicit CanvasScene(CanvasModel* model, QObject* parent = nullptr);
  ~CanvasScene() override;

  CanvasModel* model() const { return model_; }
  NodeItem* nodeItem(const QString& id) const { return nodes_.value(id); }
  QList<NodeItem*> nodeItems() const { return nodes_.values(); }
  QList<EdgeItem*> edgeItems() const { return edges_; }
  QList<PlateItem*> plateItems() const { return plates_.values(); }
  PlateItem* plateItem(const QString& id) const { return plates_.value(id); }
  /// Selected nodes, in program order.
  QStringList selectedNodes() const;
  /// Where the nodes are now (during a drag, before the model knows).
  QHash<QString, QPointF> nodePositions(const QStringList& ids) const;
  /// The bounding box of everything drawn.
  QRectF graphBounds() const;

  /// Called by a node item after it moved.
  void nodeMoved(NodeItem* item);

 private:
  void rebuild();
  void applyPositions();
  void applySelection();
  void updatePlates();
  void spreadEdgeEnds(NodeItem* target);

  CanvasModel* model_;
  QHash<QString, NodeItem*> nodes_;
  QList<EdgeItem*> edges_;
  QHash<QString, PlateItem*> plates_;
  bool syncing_ = false;
};

}  // namespace variate::ui
