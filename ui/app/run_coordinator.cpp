#include "ui/app/run_coordinator.h"

#include "engine/services/setting_table.h"

#include "ui/document/project_document.h"
#include "ui/analysis/summary_service.h"
#include "ui/runs/engine_controller.h"
#include "ui/analysis/run_loader.h"

namespace variate::ui {

RunCoordinator::RunCoordinator(EngineController* engine, QObject* parent)
    : QObject(parent), engine_(engine), loader_(new RunLoader(this)) {
  connect(engine_, &EngineController::runStarted, this, &RunCoordinator::onStarted);
  connect(engine_, &EngineController::runEnded, this, &RunCoordinator::onEnded);
  connect(engine_, &EngineController::liveUpdate, this, [this](qint64 id, const LiveUpdate& update) {
    if (document_) document_->runs()->applyLiveUpdate(id, update);
  });
  connect(engine_, &EngineController::logMessage, this, [this](const QString& message) {
    if (document_) document_->log(message);
  });
  connect(engine_, &EngineController::pausedChanged, this, [this](bool paused) {
    const qint64 id = engine_->currentRun();
    if (document_ && id >= 0 && engine_->isRunning()) {
      document_->runs()->setStatus(id, paused ? RunStatus::Paused : RunStatus::Running);
    }
    emit pausedChanged(paused);
  });
  connect(loader_, &RunLoader::loaded, this, [this](const LoadedRunPtr& loaded) {
    // A read for a project closed meanwhile does not belong to this one, even with the same id.
    if (!document_ || loaded->projectPath != document_->filePath()) return;
    const RunPtr run = document_->runs()->run(loaded->runId);
    // A run followed meanwhile (a reattached job replays every draw) gets its draws live.
    if (!run || run->isActive()) return;
    if (!loaded->error.isEmpty()) {
      document_->log(tr("Could not read the draws of %1: %2").arg(run->name, loaded->error));
      return;
    }
    document_->runs()->setDraws(run->id, loaded->chains, loaded->states, loaded->elbo, loaded->approximation);
    if (run->config.method == services::Method::sbc) document_->runs()->setSbc(run->id, loaded->sbc);
  });
}

RunCoordinator::~RunCoordinator() = default;

void RunCoordinator::setDocument(ProjectDocument* document) {
  for (const auto& connection : connections_) disconnect(connection);
  connections_.clear();
  delete summaries_;
  summaries_ = nullptr;
  document_ = document;
  requested_.clear();
  if (!document) return;
  RunList* runs = document->runs();
  summaries_ = new SummaryService(runs, this);
  connections_ << connect(runs, &RunList::currentChanged, this, &RunCoordinator::ensureLoaded);
  connections_ << connect(runs, &RunList::comparisonChanged, this, &RunCoordinator::ensureLoaded);
  // A run another process recorded gets its draws once it ended (syncRunsWithFile).
  connections_ << connect(runs, &RunList::runChanged, this, [this, runs](qint64 id) {
    if (id == runs->currentId() || id == runs->comparisonId()) ensureLoaded(id);
  });
  ensureLoaded(runs->currentId());
  if (const auto id = document->runToReattach(); id && !engine_->isRunning()) {
    QString error;
    if (!reattach(*id, &error)) document->log(error);
  }
  if (const auto id = document->sbcRunToContinue(); id && !engine_->isRunning()) {
    QString error;
    if (!continueSbc(*id, &error)) document->log(error);
  }
}

bool RunCoordinator::isRunning() const { return engine_->isRunning(); }
bool RunCoordinator::isPaused() const { return engine_->isPaused(); }
bool RunCoordinator::canPause() const {
  // SBC's replications end in moments: Stop ends it between two, and Continue SBC goes on.
  return engine_->isRunning() && !pendingConfig_.onSeveralProcesses() && pendingConfig_.method != services::Method::sbc;
}

bool RunCoordinator::start(const RunRequest& request, QString* error) {
  if (!engine_->start(request)) {
    *error = tr("A run is in progress: stop it first.");
    return false;
  }
  pendingConfig_ = request.config;
  pendingContinues_ = request.continues;
  pendingReattach_ = request.reattach;
  pendingDataSet_ = request.dataSetId.value_or(-1);
  emit runningChanged(true);
  return true;
}

bool RunCoordinator::startRun(QString* error) {
  if (!document_) return false;
  RunRequest request;
  if (!document_->prepareRun(&request, error)) return false;
  document_->log(tr("Starting %1 (%2)").arg(methodName(request.config.method), document_->modelName()));
  return start(request, error);
}

bool RunCoordinator::runMore(qint64 runId, QString* error) {
  if (!document_) return false;
  RunRequest request;
  if (const RunPtr run = document_->runs()->run(runId); run && run->config.method == services::Method::amortized) {
    if (!document_->prepareContinueTraining(runId, &request, error)) return false;
    document_->log(request.moreEpochs > 0 ? tr("Continuing %1 for %2 more epochs").arg(run->name).arg(request.moreEpochs)
                                          : tr("Continuing %1 from its last checkpoint").arg(run->name));
    return start(request, error);
  }
  if (const RunPtr run = document_->runs()->run(runId); run && run->config.method == services::Method::sbc) {
    return continueSbc(runId, error);
  }
  if (!document_->prepareRunMore(runId, &request, error)) return false;
  const RunPtr run = document_->runs()->run(runId);
  document_->log(tr("Continuing %1 for %2 more draws per chain").arg(run->name).arg(request.config.settings.get(services::setting::draws)) +
                 (run->config.onSeveralProcesses() ? tr(", in the studio alone (the other processes cannot resume chains)")
                                                   : QString()));
  return start(request, error);
}

bool RunCoordinator::reattach(qint64 runId, QString* error) {
  if (!document_) return false;
  RunRequest request;
  if (!document_->prepareReattach(runId, &request, error)) return false;
  document_->log(tr("Reattaching %1 to job %2 on %3")
                     .arg(document_->runs()->run(runId)->name, QString::fromStdString(request.config.job->id),
                          request.config.workerAddress()));
  return start(request, error);
}

bool RunCoordinator::continueSbc(qint64 runId, QString* error) {
  if (!document_) return false;
  RunRequest request;
  if (!document_->prepareContinueSbc(runId, &request, error)) return false;
  const RunPtr run = document_->runs()->run(runId);
  document_->log(tr("Continuing %1: the replications of its %2 it lacks")
                     .arg(run->name)
                     .arg(run->config.settings.get(services::setting::replications)));
  return start(request, error);
}

bool RunCoordinator::openReplicationFit(qint64 runId, int index, QString* error) {
  if (!document_) return false;
  const RunPtr run = document_->runs()->run(runId);
  if (!run) return false;
  const QString name = ProjectDocument::sbcReplicationRunName(run->name, index);
  for (const qint64 id : document_->runs()->ids()) {  // fitted before: show it
    if (const RunPtr other = document_->runs()->run(id); other && other->name == name) {
      document_->runs()->setCurrent(id);
      return true;
    }
  }
  RunRequest request;
  if (!document_->prepareReplicationFit(runId, index, &request, error)) return false;
  document_->log(tr("Fitting %1 again as its own run: its data simulated with seed %2, by %3")
                     .arg(name)
                     .arg(run->seed)
                     .arg(methodName(request.config.method)));
  return start(request, error);
}

void RunCoordinator::pause() {
  if (canPause()) engine_->pause();
}
void RunCoordinator::resume() { engine_->resume(); }
void RunCoordinator::stop() { engine_->stop(); }
void RunCoordinator::leave() { engine_->leave(); }

void RunCoordinator::onStarted(const RunStart& start) {
  if (!document_) return;
  RunList* runs = document_->runs();
  if (pendingReattach_ && runs->run(start.runId)) {  // the job's events replay from its first draw
    runs->setDraws(start.runId, {}, {}, {});
    runs->continueRun(start.runId, 0);
    runs->setCurrent(start.runId);
    return;
  }
  if (pendingContinues_ >= 0 && runs->run(start.runId) && start.resumedStep >= 0) {  // a training goes on
    runs->continueTraining(start.runId, start.resumedStep, start.epochs);
    runs->setCurrent(start.runId);
    return;
  }
  if (pendingContinues_ >= 0 && runs->run(start.runId) && pendingConfig_.method == services::Method::sbc) {
    runs->setSbc(start.runId, {});  // the stored replications come again first, then the new ones
    runs->setStatus(start.runId, RunStatus::Running);
    runs->setCurrent(start.runId);
    return;
  }
  if (pendingContinues_ >= 0 && runs->run(start.runId)) {  // the run grows: its chains get the new draws
    runs->continueRun(start.runId, pendingConfig_.settings.get(services::setting::draws));
    runs->setCurrent(start.runId);
    return;
  }
  RunData run;
  run.id = start.runId;
  run.config = pendingConfig_;
  if (start.epochs > 0) run.config.settings.set(services::setting::epochs, std::optional<int>(start.epochs));
  // What an `auto` run decided, as the project records it: more draws sample the same space.
  if (start.reparam != "none") run.config.settings.set(services::setting::reparam, start.reparam.toStdString());
  run.config.reparamPilot = start.reparamPilot;
  run.seed = start.seed;
  run.dataSetId = pendingDataSet_;
  run.columnNames = start.columns;
  run.parameterColumns = start.parameterColumns;
  run.drawsLoaded = true;
  run.started = QDateTime::currentDateTime();
  run.status = RunStatus::Running;
  document_->addStartedRun(std::move(run));
  document_->log(tr("%1 started: %2 values per draw").arg(runs->run(start.runId)->name).arg(start.columns.size()));
}

void RunCoordinator::onEnded(const RunOutcome& outcome) {
  emit runningChanged(false);
  if (!document_) return;
  if (outcome.runId >= 0) {
    document_->runs()->setStatus(outcome.runId, outcome.status, outcome.message);
    document_->refreshRun(outcome.runId);
    const RunPtr run = document_->runs()->run(outcome.runId);
    document_->log(tr("%1 %2").arg(run ? run->name : QString::number(outcome.runId), statusName(outcome.status)) +
                   (outcome.message.isEmpty() ? QString() : ": " + outcome.message));
    emit runEnded(outcome.runId);
  }
  if (outcome.status == RunStatus::Failed) {
    if (outcome.runId < 0) document_->log(tr("The run did not start: %1").arg(outcome.message));
    emit runFailed(outcome.message);
  }
}

void RunCoordinator::ensureLoaded(qint64 runId) {
  const RunPtr run = document_ ? document_->runs()->run(runId) : nullptr;
  if (!run || run->drawsLoaded || run->isActive() || requested_.contains(runId)) return;
  requested_.insert(runId);  // one read per run, even one that fails
  loader_->load(document_->filePath(), runId);
}

}  // namespace variate::ui
