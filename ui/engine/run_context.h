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
  /// A training continued from its checkpoint after this step (-1: none), for this many
  /// epochs in all.
  long long resumedStep = -1;
  int epochs = 0;
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
  /// A remote run's connection: "connected", "reconnecting" or "worker gone".
  std::function<void(const QString&)> link = [](const QString&) {};
  /// A reattached job was found paused on its worker: control is paused already; the UI
  /// is to show it.
  std::function<void()> foundPaused = [] {};
};

/// Samples with NUTS, recording into the project; never throws (failures are outcomes).
RunOutcome runNuts(const RunRequest& request, RunContext& context);
/// Fits ADVI, recording into the project; never throws.
RunOutcome runAdvi(const RunRequest& request, RunContext& context);
/// Finds the mode by L-BFGS and draws from the Laplace approximation there, recording
/// them (or the mode alone) into the project; never throws.
RunOutcome runOptimize(const RunRequest& request, RunContext& context);
/// Runs multi-path Pathfinder, recording its draws into the project; never throws.
RunOutcome runPathfinder(const RunRequest& request, RunContext& context);
/// Trains a deep model (networks and guides) by amortized VI, recording the training
/// (ELBO per step, epochs, checkpoints) into the project, or continues one from its
/// latest checkpoint (request.continues); never throws.
RunOutcome runAmortized(const RunRequest& request, RunContext& context);
/// Samples with NUTS as a job of request.config.worker, or reattaches to one
/// (request.reattach), recording its events into the project; never throws.
RunOutcome runRemoteNuts(const RunRequest& request, RunContext& context);

/// Stores the summary `variate sample` prints with run `runId`; logs why when it cannot.
void storeSummary(const RunRequest& request, qint64 runId, RunContext& context);

}  // namespace variate::ui

Q_DECLARE_METATYPE(variate::ui::RunStart)
Q_DECLARE_METATYPE(variate::ui::RunOutcome)
