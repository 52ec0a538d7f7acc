#pragma once
/// The worker object that lives on the engine thread (Qt's worker pattern): it runs one
/// request at a time and reports through signals, which are queued to the UI thread.
/// Exceptions never leave it: a failed run is an outcome with a message.

#include <QObject>

#include "ui/runs/run_context.h"

namespace variate::ui {

class InferenceWorker : public QObject {
  Q_OBJECT

 public:
  InferenceWorker(services::RunControl& control, LiveMailbox& mailbox) : control_(control), mailbox_(mailbox) {}

 public slots:
  void run(const variate::ui::RunRequest& request);

 signals:
  void started(const variate::ui::RunStart& start);
  void ended(const variate::ui::RunOutcome& outcome);
  void logged(const QString& message);
  void linkChanged(const QString& state);
  void foundPaused();

 private:
  services::RunControl& control_;
  LiveMailbox& mailbox_;
};

}  // namespace variate::ui
