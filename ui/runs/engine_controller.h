#pragma once
/// Runs inference for the studio on a worker thread it owns; the UI thread never runs
/// inference. Live results arrive as LiveUpdate batches — one queued event per time the
/// UI drains them, whatever the sampling speed. Pause and stop act on the running chains
/// directly (their thread is busy sampling, not running an event loop).

#include <memory>

#include <QObject>
#include <QThread>

#include "ui/runs/live_mailbox.h"
#include "ui/runs/run_context.h"

namespace variate::ui {

class InferenceWorker;

class EngineController : public QObject {
  Q_OBJECT

 public:
  explicit EngineController(QObject* parent = nullptr);
  /// Leaves a running run (leave()), then quits and waits for the thread.
  ~EngineController() override;

  bool isRunning() const { return running_; }
  bool isPaused() const { return control_.paused(); }
  qint64 currentRun() const { return currentRun_; }

  /// Starts a run; false (and nothing happens) while another one runs.
  bool start(const RunRequest& request);
  void pause();
  void resume();
  /// Ends the run at the chains' next iteration, keeping every draw made so far.
  void stop();
  /// For the studio closing: a remote run's job goes on on its worker (the run is left
  /// interrupted, to reattach); a local run stops as stop() stops it.
  void leave();
  /// Whether the current run is a worker's job.
  bool isRemote() const { return running_ && !workerAddress_.isEmpty(); }
  /// The current run's worker; empty for a local run.
  QString workerAddress() const { return workerAddress_; }

 signals:
  void runStarted(const variate::ui::RunStart& start);
  /// Draws, adaptation, chain ends and ELBO points of the current run since the last one.
  void liveUpdate(qint64 runId, const variate::ui::LiveUpdate& update);
  void runEnded(const variate::ui::RunOutcome& outcome);
  void pausedChanged(bool paused);
  void logMessage(const QString& message);
  /// A remote run's connection to its worker: "connected", "reconnecting", "worker gone".
  void linkChanged(const QString& state);

 private:
  void drain();
  void onStarted(const RunStart& start);
  void onEnded(const RunOutcome& outcome);

  QThread thread_;
  services::RunControl control_;
  LiveMailbox mailbox_;
  InferenceWorker* worker_ = nullptr;  // lives on thread_
  bool running_ = false;
  QString workerAddress_;
  qint64 currentRun_ = -1;
};

}  // namespace variate::ui
