#pragma once
/// Automatic top-down layout of a model graph, after Sugiyama, Tagawa & Toda (1981): nodes
/// in layers by longest path (sources moved down next to their first child), ordered within
/// each layer by the barycenter heuristic, then shifted toward their neighbours' barycenter
/// (a light form of the priority method). Plates are kept contiguous as in compound-graph
/// layouts (Sander 1996): each plate is laid out first as a block spanning its layers, and a
/// block takes one horizontal interval across all of them, so no node sits inside a plate it
/// does not belong to and plate boxes never overlap.

#include <QList>
#include <QSizeF>
#include <QStringList>

#include "ui/canvas/canvas_layout.h"
#include "ui/canvas/plate_geometry.h"

namespace variate::ui {

struct LayoutNode {
  QString id;
  QSizeF size;
  QStringList plates;  // outermost first
};

struct LayoutEdge {
  QString from;  // parent
  QString to;
  /// Where on `to` the edge ends, as an offset from its centre (a parameter's slot): the
  /// ordering lines the parent up with it.
  double toOffset = 0;
};

struct LayoutOptions {
  double horizontalGap = 36;
  /// Between layers, at least; grown so nested plate margins never meet.
  double verticalGap = 56;
  PlateMetrics plate;
  /// Barycenter ordering sweeps.
  int iterations = 4;
};

/// Node centres. `nodes` in program order (the first ordering); `plates` parents first.
NodePositions layeredLayout(const QList<LayoutNode>& nodes, const QList<LayoutEdge>& edges,
                            const QList<PlateNesting>& plates, const LayoutOptions& options = {});

}  // namespace variate::ui
