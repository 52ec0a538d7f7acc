#include "ui/canvas/plate_item.h"

#include <QPainter>

namespace variate::ui {

PlateItem::PlateItem(const CanvasPlate& plate, int depth) : plate_(plate) {
  setZValue(depth);  // nested plates over their parents, all under edges and nodes
  setToolTip(QObject::tr("plate over %1").arg(plate.size));
}

void PlateItem::setBox(const QRectF& box) {
  if (box == box_) return;
  prepareGeometryChange();
  box_ = box;
}

void PlateItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
  if (box_.isNull()) return;
  painter->setRenderHint(QPainter::Antialiasing);
  painter->setPen(QPen(QColor("#78909c"), 1.3));
  painter->setBrush(QColor(120, 144, 156, 18));
  painter->drawRoundedRect(box_, 6, 6);
  QFont font;
  font.setPointSizeF(9);
  font.setItalic(true);
  painter->setFont(font);
  painter->setPen(QColor("#455a64"));
  painter->drawText(box_.adjusted(6, 0, -8, -3), Qt::AlignRight | Qt::AlignBottom, plate_.size);
}

}  // namespace variate::ui
