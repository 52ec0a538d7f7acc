#pragma once
/// An edge of the model graph: from a node's output handle to the slot of the parameter it
/// feeds (or the top of a node that reads it in an expression), with an arrowhead. Index
/// uses are dashed, and so are a guide's reads (in violet, ending at the node's top). A
/// read of observed data by what it is observed through (CanvasEdge::feedback) runs back
/// up, swung out to the right.

#include <QGraphicsPathItem>

#include "ui/canvas/model_snapshot.h"

namespace variate::ui {

class NodeItem;

class EdgeItem : public QGraphicsPathItem {
 public:
  enum { Type = UserType + 2 };

  EdgeItem(const CanvasEdge& edge, NodeItem* from, NodeItem* to);
  /// The slot of `target` an edge ends at: its first role that is one of the target's
  /// parameters (a Mixture component's parameters end at "component"); "" for none.
  static QString slotFor(const CanvasEdge& edge, const CanvasNode& target);

  int type() const override { return Type; }
  const CanvasEdge& edge() const { return edge_; }
  NodeItem* fromItem() const { return from_; }
  NodeItem* toItem() const { return to_; }
  /// The slot the edge ends at ("" when it ends at the node's top).
  const QString& slot() const { return slot_; }

  /// Follows the nodes after they moved.
  void updatePath();
  /// For an edge without a slot: where along the target's top it ends.
  void setEndOffset(double dx);
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  /// How far an edge running back up swings out to pass beside both of its nodes.
  double clearance() const;

  CanvasEdge edge_;
  NodeItem* from_;
  NodeItem* to_;
  QString slot_;
  double endOffset_ = 0;
  QPolygonF arrow_;
};

}  // namespace variate::ui
