#include "ui/app/run_coordinator.h"

#include <variate/store/project.h>

#include "ui/document/project_document.h"
#include "ui/engine/summary_service.h"
#include "ui/engine/engine_controller.h"
#include "ui/engine/run_loader.h"

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
    if (!run) return;
    if (!loaded->error.isEmpty()) {
      document_->log(tr("Could not read the draws of %1: %2").arg(run->name, loaded->error));
      return;
    }
    run->drawsLoaded = true;
    run->elbo = loaded->elbo;
    document_->runs()->setDraws(run->id, loaded->chains, loaded->states);
  });
}

RunCoordinator::~RunCoordinator() = default;

void RunCoordinator::setDocument(ProjectDocument* document) {
  for (const auto& connection : connections_) disconnect(connection);
  connections_.clear();
  delete summaries_;
  summaries_ = nullptr;
  document_ = document;
  if (!document) return;
  RunList* runs = document->runs();
  summaries_ = new SummaryService(runs, this);
  connections_ << connect(runs, &RunList::currentChanged, this, &RunCoordinator::ensureLoaded);
  connections_ << connect(runs, &RunList::comparisonChanged, this, &RunCoordinator::ensureLoaded);
  ensureLoaded(runs->currentId());
}

bool RunCoordinator::isRunning() const { return engine_->isRunning(); }
bool RunCoordinator::isPaused() const { return engine_->isPaused(); }

bool RunCoordinator::start(const RunRequest& request, QString* error) {
  if (!engine_->start(request)) {
    *error = tr("A run is in progress: stop it first.");
    return false;
  }
  pendingConfig_ = request.config;
  pendingContinues_ = request.continues;
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
  const RunPtr run = document_ ? document_->runs()->run(runId) : nullptr;
  if (!run || run->isActive() || run->config.method != InferenceMethod::Nuts || run->status == RunStatus::Failed) {
    *error = tr("Only an ended NUTS run can be continued.");
    return false;
  }
  RunRequest request;
  request.continues = runId;
  for (size_t c = 0; c < run->chainStates.size(); ++c) {
    const ChainState& state = run->chainStates[c];
    if (!state.stepSize || state.lastPosition.empty() || state.inverseMetric.empty()) {
      *error = tr("%1 cannot be continued: chain %2 ended before its warmup did.").arg(run->name).arg(c + 1);
      return false;
    }
    request.resume.push_back({state.lastPosition, *state.stepSize, state.inverseMetric, run->chains[c].iterations(),
                              run->chains[c].warmupIterations()});
  }
  if (request.resume.empty()) {
    *error = tr("%1 has no chains to continue (its draws are not read yet).").arg(run->name);
    return false;
  }
  try {  // the chains continue in the model version and data they were sampled with
    const auto version = document_->project().model_version(run->modelVersion);
    request.projectPath = document_->filePath();
    request.modelName = QString::fromStdString(version.model_name);
    request.modelText = QString::fromStdString(version.text);
    request.modelVersionId = version.id;
    if (run->dataSetId >= 0) {
      const auto data = document_->project().data_set(run->dataSetId);
      request.dataSetName = QString::fromStdString(data.name);
      request.dataJson = QString::fromStdString(data.json_text);
      request.dataSetId = data.id;
    }
  } catch (const std::exception& e) {
    *error = QString::fromStdString(e.what());
    return false;
  }
  request.config = run->config;
  request.config.chains = static_cast<int>(request.resume.size());
  request.config.warmup = 0;
  request.config.draws = document_->runConfig().draws;
  // Each continuation draws from its own streams (the engine also keeps them apart from
  // the first run's): the seed moves on with the draws already made.
  request.config.seed = run->config.seed + static_cast<quint64>(run->chains.front().iterations());
  document_->log(tr("Continuing %1 for %2 more draws per chain").arg(run->name).arg(request.config.draws));
  return start(request, error);
}

void RunCoordinator::pause() { engine_->pause(); }
void RunCoordinator::resume() { engine_->resume(); }
void RunCoordinator::stop() { engine_->stop(); }

void RunCoordinator::onStarted(const RunStart& start) {
  if (!document_) return;
  RunList* runs = document_->runs();
  if (pendingContinues_ >= 0) {  // the run grows: its chains get the new draws
    if (const RunPtr run = runs->run(start.runId)) {
      run->config.draws += pendingConfig_.draws;
      for (ChainState& state : run->chainStates) {
        state.finished = false;
        state.firstDrawMs = -1;  // the rate and time left start over
      }
      run->ended = QDateTime();
      run->message.clear();
      runs->setStatus(run->id, RunStatus::Running);
      runs->setCurrent(run->id);
      return;
    }
  }
  auto run = std::make_shared<RunData>();
  run->id = start.runId;
  run->config = pendingConfig_;
  run->dataSetId = pendingDataSet_;
  run->columnNames = start.columns;
  run->parameterColumns = start.parameterColumns;
  run->drawsLoaded = true;
  run->started = QDateTime::currentDateTime();
  run->status = RunStatus::Running;
  try {
    const auto record = document_->project().run(start.runId);
    run->name = QString::fromStdString(record.name);
    run->modelVersion = record.model_version_id;
  } catch (const std::exception& e) {
    run->name = tr("run %1").arg(start.runId);
  }
  runs->add(run);
  document_->log(tr("%1 started: %2 values per draw").arg(run->name).arg(start.columns.size()));
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
  if (!run || run->drawsLoaded || run->isActive()) return;
  run->drawsLoaded = true;  // one read at a time; the reader sets the draws when done
  loader_->load(document_->filePath(), runId);
}

}  // namespace variate::ui
