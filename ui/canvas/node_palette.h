#pragma once
/// The palette of nodes to add: data inputs, an expression, and every distribution family
/// grouped by the support of its draws (real line, positive, interval, counts, ...). Click
/// an entry to add it in the middle of the canvas, or drag it to a place.

#include <QTreeWidget>

#include "ui/canvas/node_template.h"

namespace variate::ui {

class NodePalette : public QTreeWidget {
  Q_OBJECT

 public:
  explicit NodePalette(QWidget* parent = nullptr);

  /// The entry that adds `what` (for tests and keyboard users).
  QTreeWidgetItem* itemFor(const NodeTemplate& what) const;

 signals:
  void nodeRequested(const variate::ui::NodeTemplate& what);

 protected:
  QMimeData* mimeData(const QList<QTreeWidgetItem*>& items) const override;
  QStringList mimeTypes() const override;

 private:
  void onItemActivated(QTreeWidgetItem* item);
};

}  // namespace variate::ui
