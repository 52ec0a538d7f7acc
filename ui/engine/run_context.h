#pragma once
/// What a run function on the engine thread reports through, and what it returns.

#include <functional>

#include <QString>
#include <QStringList>

#include "ui/document/run_data.h"
#include "ui/engine/live_mailbox.h"
#include "ui/engine/run_control.h"
#include "ui/document/run_request.h"

namespace variate::ui {

/// A run now exists in the project file: its id and its output columns (bracketed names,
/// parameters first).
struct RunStart {
  qint64 runId = -1;
  QStringList columns;
  int parameterColumns = 0;
};

struct RunOutcome {
  qint64 runId = -1;  // -1 when the run failed before the project recorded it
  RunStatus status = RunStatus::Finished;
  QString message;
};

struct RunContext {
  RunControl& control;
  LiveMailbox& mailbox;
  std::function<void(const RunStart&)> started;
  std::function<void(const QString&)> log;
};

/// Samples with NUTS, recording into the project; never throws (failures are outcomes).
RunOutcome runNuts(const RunRequest& request, RunContext& context);
/// Fits ADVI, recording into the project; never throws.
RunOutcome runAdvi(const RunRequest& request, RunContext& context);

}  // namespace variate::ui

Q_DECLARE_METATYPE(variate::ui::RunStart)
Q_DECLARE_METATYPE(variate::ui::RunOutcome)
