#pragma once
/// Asks workers what they are and run (Hello and ListJobs) on a thread of its own, for
/// the Workers panel: the UI thread never waits on the network. Each answer, or why none
/// came, arrives as a WorkerStatus through a queued signal.

#include <atomic>

#include <QList>
#include <QMetaType>
#include <QObject>
#include <QStringList>
#include <QThread>

#include "ui/document/worker_ref.h"

namespace variate::ui {

struct WorkerStatus {
  QString address;
  bool reachable = false;
  QString error;  // why not
  int cores = 0;
  QStringList devices;
  int runningJobs = 0;
  int maxJobs = 0;
  QStringList jobs;  // "0123abcd running eight_schools (studio me@host)", newest last
};

class WorkerProbe : public QObject {
  Q_OBJECT

 public:
  explicit WorkerProbe(QObject* parent = nullptr);
  /// Waits for the probe under way (each call gives up within a few seconds).
  ~WorkerProbe() override;

  /// Asks each of `workers` in turn; probed() reports each.
  void probe(const QList<WorkerRef>& workers);
  /// Whether a probe is under way.
  bool busy() const { return pending_.load() > 0; }

 signals:
  void probed(const variate::ui::WorkerStatus& status);

 private:
  QThread thread_;
  QObject* context_;  // lives on thread_
  std::atomic<int> pending_{0};
};

}  // namespace variate::ui

Q_DECLARE_METATYPE(variate::ui::WorkerStatus)
