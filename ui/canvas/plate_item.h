#pragma once
/// A plate: a box around the nodes that repeat over one dimension, labelled with its size
/// in the bottom-right corner.

#include <QGraphicsItem>

#include "ui/canvas/model_snapshot.h"

namespace variate::ui {

class PlateItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 3 };

  PlateItem(const CanvasPlate& plate, int depth);

  int type() const override { return Type; }
  const CanvasPlate& plate() const { return plate_; }
  /// The box in scene coordinates.
  QRectF box() const { return box_; }
  void setBox(const QRectF& box);

  QRectF boundingRect() const override { return box_.adjusted(-1, -1, 1, 1); }
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  CanvasPlate plate_;
  QRectF box_;
};

}  // namespace variate::ui
