#include "ui/canvas/edge_item.h"

#include <cmath>

#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "ui/canvas/node_item.h"

namespace variate::ui {

QString EdgeItem::slotFor(const CanvasEdge& edge, const CanvasNode& target) {
  for (const auto& role : edge.roles) {
    if (target.parameters.contains(role)) return role;
  }
  for (const auto& role : edge.roles) {
    if (role.startsWith("component.") && target.parameters.contains("component")) return "component";
  }
  return {};
}

EdgeItem::EdgeItem(const CanvasEdge& edge, NodeItem* from, NodeItem* to)
    : edge_(edge), from_(from), to_(to), slot_(slotFor(edge, to->node())) {
  const bool indexOnly = edge.roles == QStringList{"index"};
  setPen(QPen(QColor("#546e7a"), 1.4, indexOnly ? Qt::DashLine : Qt::SolidLine, Qt::RoundCap));
  setFlags(ItemIsSelectable);
  setZValue(5);
  setToolTip(QObject::tr("%1 → %2 (%3)").arg(edge.from, edge.to, edge.roles.join(", ")));
  updatePath();
}

void EdgeItem::updatePath() {
  const QPointF start = from_->mapToScene(from_->outputAnchor());
  const QPointF end = to_->mapToScene(slot_.isEmpty() ? to_->topAnchor(endOffset_) : to_->slotAnchor(slot_));
  // A vertical S-curve reads as top-down flow even when the child sits beside its parent.
  const double bend = std::max(30.0, std::abs(end.y() - start.y()) / 2);
  QPainterPath path(start);
  path.cubicTo(start + QPointF(0, bend), end - QPointF(0, bend), end);
  const QPointF direction = end - path.pointAtPercent(0.95);
  const double length = std::hypot(direction.x(), direction.y());
  const QPointF unit = length > 0 ? direction / length : QPointF(0, 1);
  const QPointF normal(-unit.y(), unit.x());
  arrow_ = QPolygonF({end, end - unit * 9 + normal * 4.5, end - unit * 9 - normal * 4.5});
  path.addPolygon(arrow_);
  setPath(path);
}

void EdgeItem::setEndOffset(double dx) {
  if (dx == endOffset_) return;
  endOffset_ = dx;
  updatePath();
}

void EdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  painter->setRenderHint(QPainter::Antialiasing);
  QPen line = pen();
  if (option->state & QStyle::State_Selected) {
    line.setColor(QColor("#1e73d8"));
    line.setWidthF(2.6);
  }
  painter->setPen(line);
  painter->setBrush(Qt::NoBrush);
  const QPointF start = from_->mapToScene(from_->outputAnchor());
  const QPointF end = arrow_.isEmpty() ? start : arrow_.front();
  const double bend = std::max(30.0, std::abs(end.y() - start.y()) / 2);
  QPainterPath curve(start);
  curve.cubicTo(start + QPointF(0, bend), end - QPointF(0, bend), end);
  painter->drawPath(curve);
  painter->setPen(Qt::NoPen);
  painter->setBrush(line.color());
  painter->drawPolygon(arrow_);
}

}  // namespace variate::ui
