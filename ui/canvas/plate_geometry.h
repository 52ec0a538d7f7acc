#pragma once
/// The boxes plates draw around their nodes: the union of the nodes drawn directly in a
/// plate and of the boxes of the plates nested in it, padded, with the plate's label in the
/// bottom margin (plate notation: Koller & Friedman 2009, sec. 6.4.1).

#include <QHash>
#include <QList>
#include <QRectF>
#include <QStringList>

namespace variate::ui {

struct PlateMetrics {
  double padding = 14;
  double labelHeight = 18;
};

struct PlateNesting {
  QString id;
  QString parent;  // "" at top level; a parent comes before its children
};

/// `nodePlates`: each node's plates, outermost first. Plates without nodes get no box.
QHash<QString, QRectF> plateBoxes(const QList<PlateNesting>& plates,
                                  const QHash<QString, QRectF>& nodeRects,
                                  const QHash<QString, QStringList>& nodePlates,
                                  const PlateMetrics& metrics = {});

}  // namespace variate::ui
