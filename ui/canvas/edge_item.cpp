#include "ui/canvas/edge_item.h"

#include <algorithm>
#include <cmath>

#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "ui/canvas/node_item.h"

namespace variate::ui {

QString EdgeItem::slotFor(const CanvasEdge& edge, const CanvasNode& target) {
  if (edge.guide) return {};  // the slots are the prior's parameters
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
  const bool call = from->node().kind == CanvasNode::Kind::Function;  // no value flows: a call
  QColor color = edge.guide ? QColor("#7e57c2") : QColor("#546e7a");
  if (call) color = QColor("#2e7d32");
  setPen(QPen(color, 1.4, call ? Qt::DotLine : indexOnly || edge.guide ? Qt::DashLine : Qt::SolidLine, Qt::RoundCap));
  setFlags(ItemIsSelectable);
  setZValue(5);
  if (edge.feedback) {
    setToolTip(QObject::tr("%1 → %2 (%3): the data of %1, read back by what it is observed through")
                   .arg(edge.from, edge.to, edge.roles.join(", ")));
  } else if (call) {
    setToolTip(edge.roles.contains("dy/dt")
                   ? QObject::tr("%1 → %2: the right-hand side dy/dt of an ODE solver %2 calls").arg(edge.from, edge.to)
                   : QObject::tr("%1 → %2: %2 calls %1").arg(edge.from, edge.to));
  } else if (edge.guide) {
    setToolTip(QObject::tr("%1 → %2 (the guide's %3)").arg(edge.from, edge.to, edge.roles.join(", ")));
  } else {
    setToolTip(QObject::tr("%1 → %2 (%3)").arg(edge.from, edge.to, edge.roles.join(", ")));
  }
  updatePath();
}

namespace {

// A vertical S-curve reads as top-down flow even when the child sits beside its parent.
// An edge back up the graph (a guide reading what the model generates, a node reading the
// data observed through it) swings out to the right, clear of the edges running down
// between the same nodes.
// `clearance` is how far out it must swing to pass beside both nodes.
QPainterPath curve(const QPointF& start, const QPointF& end, double clearance) {
  const double rise = start.y() - end.y();
  const double bend = std::max(30.0, std::abs(end.y() - start.y()) / 2);
  const double out = rise > 0 ? std::max(std::clamp(rise * 0.35, 80.0, 260.0), clearance) : 0;
  QPainterPath path(start);
  path.cubicTo(start + QPointF(out, bend), end + QPointF(out, -bend), end);
  return path;
}

}  // namespace

void EdgeItem::updatePath() {
  const QPointF start = from_->mapToScene(from_->outputAnchor());
  const QPointF end = to_->mapToScene(slot_.isEmpty() ? to_->topAnchor(endOffset_) : to_->slotAnchor(slot_));
  QPainterPath path = curve(start, end, clearance());
  const QPointF direction = end - path.pointAtPercent(0.95);
  const double length = std::hypot(direction.x(), direction.y());
  const QPointF unit = length > 0 ? direction / length : QPointF(0, 1);
  const QPointF normal(-unit.y(), unit.x());
  arrow_ = QPolygonF({end, end - unit * 9 + normal * 4.5, end - unit * 9 - normal * 4.5});
  path.addPolygon(arrow_);
  setPath(path);
}

double EdgeItem::clearance() const {
  return std::max(from_->boundingRect().width(), to_->boundingRect().width()) / 2 + 30;
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
  painter->drawPath(curve(start, end, clearance()));
  painter->setPen(Qt::NoPen);
  painter->setBrush(line.color());
  painter->drawPolygon(arrow_);
}

}  // namespace variate::ui
