#include "ui/document/run_list.h"

#include "engine/services/setting_table.h"

#include <QDateTime>

namespace variate::ui {

RunPtr RunList::run(qint64 id) const {
  const auto it = runs_.find(id);
  return it == runs_.end() ? nullptr : it->second;
}

RunData* RunList::find(qint64 id) const {
  const auto it = runs_.find(id);
  return it == runs_.end() ? nullptr : it->second.get();
}

void RunList::add(RunData run, bool makeCurrent) {
  const qint64 id = run.id;
  const bool replaced = runs_.count(id) > 0;
  runs_[id] = std::make_shared<RunData>(std::move(run));
  if (!replaced) order_ << id;
  if (replaced) emit runChanged(id); else emit runAdded(id);
  if (makeCurrent) setCurrent(id);
}

void RunList::remove(qint64 id) {
  if (!runs_.erase(id)) return;
  order_.removeAll(id);
  if (comparison_ == id) setComparison(-1);
  if (current_ == id) setCurrent(order_.isEmpty() ? -1 : order_.last());
  emit runRemoved(id);
}

void RunList::clear() {
  const QList<qint64> ids = order_;
  for (qint64 id : ids) remove(id);
}

void RunList::setCurrent(qint64 id) {
  if (id == current_ || (id >= 0 && !run(id))) return;
  current_ = id;
  if (comparison_ == id && id >= 0) setComparison(-1);
  emit currentChanged(id);
}

void RunList::setComparison(qint64 id) {
  if (id == comparison_ || (id >= 0 && !run(id))) return;
  comparison_ = id == current_ ? -1 : id;
  emit comparisonChanged(comparison_);
}

void RunList::applyLiveUpdate(qint64 id, const LiveUpdate& update) {
  RunData* target = find(id);
  if (!target) return;
  const qint64 now = QDateTime::currentMSecsSinceEpoch();
  for (const auto& block : update.blocks) target->append(block, now);
  for (const auto& adaptation : update.adaptations) {
    if (adaptation.chain >= static_cast<int>(target->chainStates.size())) {
      target->chainStates.resize(adaptation.chain + 1);
      target->chains.resize(adaptation.chain + 1);
    }
    ChainState& state = target->chainStates[adaptation.chain];
    state.stepSize = adaptation.stepSize;
    state.inverseMetric = adaptation.inverseMetric;
  }
  for (const auto& end : update.chainEnds) {
    if (end.chain >= static_cast<int>(target->chainStates.size())) {
      target->chainStates.resize(end.chain + 1);
      target->chains.resize(end.chain + 1);
    }
    ChainState& state = target->chainStates[end.chain];
    state.finished = true;
    state.stoppedEarly = end.stoppedEarly;
    state.lastPosition = end.lastPosition;
    state.stepSize = end.stepSize;
    state.inverseMetric = end.inverseMetric;
  }
  target->elbo.points.insert(target->elbo.points.end(), update.elbo.begin(), update.elbo.end());
  if (update.elboConvergedAt >= 0) target->elbo.convergedAt = update.elboConvergedAt;
  target->elbo.pathPoints.insert(target->elbo.pathPoints.end(), update.pathPoints.begin(), update.pathPoints.end());
  target->elbo.epochs.insert(target->elbo.epochs.end(), update.epochs.begin(), update.epochs.end());
  if (update.preview) target->preview = update.preview;
  if (update.approximation) target->approximation = *update.approximation;
  for (const auto& replication : update.sbc) target->sbc.add(replication);

  if (!update.blocks.empty()) emit drawsAppended(id, update.blocks);
  for (const auto& adaptation : update.adaptations) emit chainStateChanged(id, adaptation.chain);
  for (const auto& end : update.chainEnds) emit chainStateChanged(id, end.chain);
  if (!update.elbo.empty() || update.elboConvergedAt >= 0 || !update.epochs.empty() || !update.pathPoints.empty()) {
    emit elboAppended(id);
  }
  if (update.preview) emit previewChanged(id);
  if (update.approximation) emit runChanged(id);
  if (!update.sbc.empty()) emit sbcChanged(id);
}

void RunList::setSbc(qint64 id, SbcReplications replications) {
  RunData* target = find(id);
  if (!target) return;
  target->sbc = std::move(replications);
  emit sbcChanged(id);
}

void RunList::setStatus(qint64 id, RunStatus status, const QString& message) {
  RunData* target = find(id);
  if (!target) return;
  target->status = status;
  if (!message.isEmpty()) target->message = message;
  if (!target->isActive() && !target->ended.isValid()) target->ended = QDateTime::currentDateTime();
  emit runChanged(id);
}

void RunList::setName(qint64 id, const QString& name) {
  RunData* target = find(id);
  if (!target || target->name == name) return;
  target->name = name;
  emit runChanged(id);
}

void RunList::setSummary(qint64 id, RunSummary summary) {
  RunData* target = find(id);
  if (!target) return;
  target->summary = std::move(summary);
  emit summaryChanged(id);
}

void RunList::setDraws(qint64 id, std::vector<ChainDraws> chains, std::vector<ChainState> states, ElboTrace elbo,
                       ApproximationCheck approximation) {
  RunData* target = find(id);
  if (!target) return;
  target->chains = std::move(chains);
  target->chainStates = std::move(states);
  target->chainStates.resize(target->chains.size());
  target->elbo = std::move(elbo);
  target->approximation = std::move(approximation);
  target->drawsLoaded = true;
  emit drawsReset(id);
}

void RunList::continueRun(qint64 id, int moreDraws) {
  RunData* target = find(id);
  if (!target) return;
  services::Settings& settings = target->config.settings;
  settings.set(services::setting::draws, settings.get(services::setting::draws) + moreDraws);
  for (ChainState& state : target->chainStates) {
    state.finished = false;
    state.stoppedEarly = false;
    state.firstDrawMs = -1;  // the rate and time left start over
  }
  target->status = RunStatus::Running;
  target->message.clear();
  target->ended = QDateTime();
  emit runChanged(id);
}

void RunList::continueTraining(qint64 id, long long checkpointStep, int epochs) {
  RunData* target = find(id);
  if (!target) return;
  target->elbo.rewindTo(checkpointStep);
  target->config.settings.set(services::setting::epochs, std::optional<int>(epochs));
  target->status = RunStatus::Running;
  target->message.clear();
  target->ended = QDateTime();
  emit drawsReset(id);
  emit runChanged(id);
}

void RunList::setPreview(qint64 id, TrainingPreviewPtr preview) {
  RunData* target = find(id);
  if (!target) return;
  target->preview = std::move(preview);
  emit previewChanged(id);
}

void RunList::setRecorded(const RunData& record) {
  RunData* target = find(record.id);
  if (!target) return;
  target->name = record.name;
  target->status = record.status;
  target->message = record.message;
  target->started = record.started;
  target->ended = record.ended;
  target->storedDraws = record.storedDraws;
  emit runChanged(record.id);
}

}  // namespace variate::ui
