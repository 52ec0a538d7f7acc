#include "ui/runs/engine_controller.h"

#include "ui/runs/background_priority.h"
#include "ui/runs/inference_worker.h"
#include "ui/threading/thread_handoff.h"

namespace variate::ui {

EngineController::EngineController(QObject* parent)
    : QObject(parent),
      mailbox_([this] { postCall(this, [this] { drain(); }); }) {
  qRegisterMetaType<RunRequest>();
  qRegisterMetaType<RunStart>();
  qRegisterMetaType<RunOutcome>();
  qRegisterMetaType<LiveUpdate>();
  thread_.setObjectName("variate-engine");
  worker_ = new InferenceWorker(control_, mailbox_);
  worker_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
  connect(&thread_, &QThread::started, worker_, &lowerCurrentThreadPriority, Qt::DirectConnection);
  // Queued from the engine thread, which hands them over (thread_handoff.h).
  connect(worker_, &InferenceWorker::started, this, [this](const RunStart& start) {
    takeOver();
    onStarted(start);
  });
  connect(worker_, &InferenceWorker::ended, this, [this](const RunOutcome& outcome) {
    takeOver();
    onEnded(outcome);
  });
  connect(worker_, &InferenceWorker::logged, this, [this](const QString& message) {
    takeOver();
    emit logMessage(message);
  });
  connect(worker_, &InferenceWorker::linkChanged, this, [this](const QString& state) {
    takeOver();
    emit linkChanged(state);
  });
  // The engine thread paused the control already (a reattached job that is held).
  connect(worker_, &InferenceWorker::foundPaused, this, [this] {
    takeOver();
    emit pausedChanged(true);
  });
  thread_.start();
}

EngineController::~EngineController() {
  control_.request_detach();
  control_.request_stop();
  thread_.quit();
  thread_.wait();
}

bool EngineController::start(const RunRequest& request) {
  if (running_) return false;
  control_.reset();
  mailbox_.take();  // nothing of an earlier run may leak into this one
  running_ = true;
  workerAddress_ = request.config.workerAddress();
  currentRun_ = -1;
  postCall(worker_, [worker = worker_, request] { worker->run(request); });
  return true;
}

void EngineController::pause() {
  if (!running_ || control_.paused()) return;
  control_.set_paused(true);
  emit pausedChanged(true);
}

void EngineController::resume() {
  if (!control_.paused()) return;
  control_.set_paused(false);
  emit pausedChanged(false);
}

void EngineController::stop() {
  if (!running_) return;
  const bool wasPaused = control_.paused();
  control_.request_stop();
  if (wasPaused) emit pausedChanged(false);
}

void EngineController::leave() {
  if (!running_) return;
  control_.request_detach();  // before the stop: a remote run then detaches instead
  stop();
}

void EngineController::drain() {
  LiveUpdate update = mailbox_.take();
  if (update.empty() || currentRun_ < 0) return;
  emit liveUpdate(currentRun_, update);
}

void EngineController::onStarted(const RunStart& start) {
  currentRun_ = start.runId;
  emit runStarted(start);
}

void EngineController::onEnded(const RunOutcome& outcome) {
  drain();  // the last blocks were posted before the run ended
  running_ = false;
  currentRun_ = -1;
  control_.reset();
  emit runEnded(outcome);
}

}  // namespace variate::ui
