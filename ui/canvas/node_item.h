#pragma once
/// A node of the model graph on the canvas, drawn after the Bayesian-network conventions:
/// data as a rectangle, a latent variable as an ellipse, an observed one as a shaded
/// ellipse, a deterministic node with a double outline, a network as a rounded box with a
/// bar per layer and its widths ("mlp 20 → 400 → 784, relu"). Its distribution's parameters are
/// slots along its top edge (edges end there; drop a connection onto one), and a handle at
/// its bottom starts a connection. The item's position is the node's centre.

#include <QGraphicsItem>

#include "ui/canvas/model_snapshot.h"
#include "ui/canvas/node_diagnostics.h"

namespace variate::ui {

class NodeItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 1 };

  NodeItem(const CanvasNode& node, const NodeDiagnostics* diagnostics);

  /// The size of the node's body (without slots and handle), as the layout needs it.
  static QSizeF bodySize(const CanvasNode& node, const NodeDiagnostics* diagnostics);

  int type() const override { return Type; }
  const QString& id() const { return node_.id; }
  const CanvasNode& node() const { return node_; }
  /// The body in scene coordinates (what must not overlap).
  QRectF sceneBody() const { return mapRectToScene(body_); }

  QRectF boundingRect() const override;
  QPainterPath shape() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  /// The parameter whose slot is at a point in item coordinates, or "".
  QString slotAt(const QPointF& point) const;
  /// Where an edge feeding `parameter` ends (item coordinates); the top centre for roles
  /// without a slot.
  QPointF slotAnchor(const QString& parameter) const;
  /// The rectangle of a parameter's slot (item coordinates); null for none.
  QRectF slotRect(const QString& parameter) const;
  /// The horizontal offset of a parameter's slot centre from the node's centre (0 when it
  /// has none), as the layout needs it before items exist.
  static double slotOffset(const CanvasNode& node, const QString& parameter);
  QPointF outputAnchor() const { return QPointF(0, body_.bottom()); }
  /// A point on the top of the body, `dx` right of its centre (edges without a slot end
  /// there, spread so their arrowheads do not pile up).
  QPointF topAnchor(double dx) const;
  bool onOutputHandle(const QPointF& point) const;
  /// Highlights a slot while a connection is dragged over it ("" for none).
  void setHighlightedSlot(const QString& parameter);

 protected:
  QVariant itemChange(GraphicsItemChange change, const QVariant& value) override;

 private:
  void layoutSlots();

  CanvasNode node_;
  bool hasDiagnostics_ = false;
  NodeDiagnostics diagnostics_;
  QRectF body_;
  QList<QPair<QString, QRectF>> slots_;
  QString highlighted_;
};

}  // namespace variate::ui
