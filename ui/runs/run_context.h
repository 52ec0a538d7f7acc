#pragma once
/// What a run on the engine thread reports through, and what it returns.

#include <functional>

#include <QString>
#include <QStringList>

#include "ui/document/run_data.h"
#include "engine/services/run_control.h"
#include "ui/runs/live_mailbox.h"
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
  /// The seed the run uses (drawn at random when the configuration named none).
  quint64 seed = 0;
  /// The centerings a sampler's variables were sampled with, as the setting reparam writes
  /// them; "none" when it reparameterized none.
  QString reparam = QStringLiteral("none");
  int reparamPilot = 0;  ///< services::RunFacts::reparam_pilot
};

struct RunOutcome {
  qint64 runId = -1;  // -1 when the run failed before the project recorded it
  RunStatus status = RunStatus::Finished;
  QString message;
};

struct RunContext {
  services::RunControl& control;
  LiveMailbox& mailbox;
  std::function<void(const RunStart&)> started;
  std::function<void(const QString&)> log;
  /// A remote run's connection: "connected", "reconnecting" or "worker gone".
  std::function<void(const QString&)> link = [](const QString&) {};
  /// A reattached job was found paused on its worker: control is paused already; the UI
  /// is to show it.
  std::function<void()> foundPaused = [] {};
};

/// Makes the run `request` asks for through its method's service (engine/services),
/// recording into the project, with the live views fed as it goes; never throws
/// (failures are outcomes).
RunOutcome runRequest(const RunRequest& request, RunContext& context);

}  // namespace variate::ui

Q_DECLARE_METATYPE(variate::ui::RunStart)
Q_DECLARE_METATYPE(variate::ui::RunOutcome)
