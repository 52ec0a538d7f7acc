#include "ui/canvas/plate_geometry.h"

namespace variate::ui {

QHash<QString, QRectF> plateBoxes(const QList<PlateNesting>& plates, const QHash<QString, QRectF>& nodeRects,
                                  const QHash<QString, QStringList>& nodePlates, const PlateMetrics& metrics) {
  QHash<QString, QRectF> content;
  for (auto it = nodePlates.begin(); it != nodePlates.end(); ++it) {
    if (it.value().isEmpty() || !nodeRects.contains(it.key())) continue;
    QRectF& box = content[it.value().last()];
    box = box.isNull() ? nodeRects.value(it.key()) : box.united(nodeRects.value(it.key()));
  }
  QHash<QString, QRectF> boxes;
  // Children come after their parents: walking backwards finishes every child first.
  for (auto it = plates.rbegin(); it != plates.rend(); ++it) {
    if (!content.contains(it->id)) continue;
    const QRectF inner = content.value(it->id);
    const QRectF box = inner.adjusted(-metrics.padding, -metrics.padding, metrics.padding,
                                      metrics.padding + metrics.labelHeight);
    boxes.insert(it->id, box);
    if (!it->parent.isEmpty()) {
      QRectF& outer = content[it->parent];
      outer = outer.isNull() ? box : outer.united(box);
    }
  }
  return boxes;
}

}  // namespace variate::ui
