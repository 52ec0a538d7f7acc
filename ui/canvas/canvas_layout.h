#pragma once
/// Where the canvas draws each node (its centre in scene coordinates), by node name, as the
/// project stores it next to each model version: JSON such as
///   {"format": "variate-canvas-layout", "version": 1, "nodes": {"mu": [120, 40], ...}}
/// Names stay stable across text edits, so a node keeps its place while it exists.

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QPointF>
#include <QStringList>

namespace variate::ui {

using NodePositions = QHash<QString, QPointF>;

class CanvasLayout : public QObject {
  Q_OBJECT

 public:
  using QObject::QObject;

  const NodePositions& positions() const { return positions_; }
  bool contains(const QString& node) const { return positions_.contains(node); }
  QPointF position(const QString& node) const { return positions_.value(node); }

  /// Replaces every position (undo and redo do this).
  void setPositions(const NodePositions& positions);
  /// Adds or moves some nodes, keeping the others.
  void merge(const NodePositions& positions);

  /// The positions of `nodes` (those it has) as the project stores them.
  QByteArray toJson(const QStringList& nodes) const;
  /// Reads what toJson wrote; false with a message for anything else.
  static bool fromJson(const QByteArray& json, NodePositions* positions, QString* error);

 signals:
  void positionsChanged();

 private:
  NodePositions positions_;
};

}  // namespace variate::ui
