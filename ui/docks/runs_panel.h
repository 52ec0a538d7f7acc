#pragma once
/// The runs of the project: name, method, status, chains, draws, start and duration.
/// Selecting one makes it current (the plots and tables follow); its context menu
/// compares it with the current run, renames it, deletes it or exports its draws.

#include <QPointer>
#include <QSet>
#include <QTimer>
#include <QWidget>

class QTreeWidget;
class QTreeWidgetItem;

namespace variate::ui {

class ProjectDocument;

class RunsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit RunsPanel(QWidget* parent = nullptr);
  void setDocument(ProjectDocument* document);
  QTreeWidget* tree() const { return tree_; }

 signals:
  void exportDrawsRequested(qint64 runId);
  void runMoreRequested(qint64 runId);
  void deleteRequested(qint64 runId);

 private:
  void rebuild();
  void update(qint64 id);
  QTreeWidgetItem* itemOf(qint64 id) const;
  void showMenu(const QPoint& position);

  QPointer<ProjectDocument> document_;
  QTreeWidget* tree_;
  bool updating_ = false;
  QSet<qint64> stale_;  // runs whose draws grew since the last refresh
  QTimer timer_;
  QList<QMetaObject::Connection> connections_;
};

}  // namespace variate::ui
