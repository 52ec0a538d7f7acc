#pragma once
/// The workers (`variate worker`) runs can go to: add one by address, token file and CA
/// file (kept in QSettings, known_workers.h), remove one, and see each one's reachability,
/// cores, devices and jobs, polled every few seconds off the UI thread (WorkerProbe).
/// Above the list: the connection of this studio's remote run (connected, reconnecting,
/// worker gone).

#include <QWidget>

#include "ui/document/worker_ref.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QTimer;
class QTreeWidget;
class QTreeWidgetItem;

namespace variate::ui {

class WorkerProbe;
struct WorkerStatus;

class WorkersPanel : public QWidget {
  Q_OBJECT

 public:
  explicit WorkersPanel(QWidget* parent = nullptr);

  /// Adds (or replaces, by address) a worker and probes it; false with a message when
  /// the address is not HOST:PORT or the token file is not given.
  bool addWorker(const WorkerRef& worker, QString* error);
  QTreeWidget* list() const { return list_; }
  /// The list's line of the worker at `address` (its jobs are its children); nullptr if none.
  QTreeWidgetItem* itemOf(const QString& address) const;
  /// "connected", "reconnecting", "worker gone" for the run at `address`; empty: none.
  void showLink(const QString& address, const QString& state);

 signals:
  /// The known workers changed (the Run panel's "Run on" lists them).
  void workersChanged();

 private:
  void addFromFields();
  void removeSelected();
  void poll();
  void showStatus(const WorkerStatus& status);
  void rebuild();

  QLineEdit* address_;
  QLineEdit* tokenFile_;
  QLineEdit* caFile_;
  QPushButton* add_;
  QPushButton* remove_;
  QLabel* link_;
  QTreeWidget* list_;
  QTimer* timer_;
  WorkerProbe* probe_;
};

}  // namespace variate::ui
