#include "ui/analysis/prediction_service.h"

#include <QPointer>
#include <QThread>

#include "ui/runs/background_priority.h"
#include "ui/threading/thread_handoff.h"

namespace variate::ui {

PredictionService::~PredictionService() {
  for (QThread* thread : threads_) thread->wait();
}

bool PredictionService::request(const QString& projectPath, const RunPtr& run, PredictionNeed need) {
  if (projectPath != projectPath_) clear();
  projectPath_ = projectPath;
  if (!run) return false;
  if (const RunPredictionPtr known = result(run->id)) {
    // "Run more draws" grew the run since: compute again (a failure stays as it is).
    const bool grown = run->drawsLoaded && known->error.isEmpty() && known->drawsPerChain != run->samplingDrawsPerChain();
    const bool lacking = need == PredictionNeed::Replications && known->looOnly;
    if (!grown && !lacking) return true;
  }
  if (running_.contains(run->id) || run->isActive() || run->config.method != services::Method::nuts) return false;
  running_.insert(run->id);
  QPointer<PredictionService> self(this);
  // The thread reads a copy (whose chains share the immutable blocks): the run list may
  // change its run meanwhile ("run more draws").
  auto snapshot = std::make_shared<const RunData>(*run);
  QThread* thread = QThread::create([self, projectPath, snapshot, need, this] {
    lowerCurrentThreadPriority();
    auto result = std::make_shared<const RunPrediction>(need == PredictionNeed::Loo ? looOfRun(projectPath, *snapshot)
                                                                                     : predictRun(projectPath, *snapshot));
    postCall(this, [self, projectPath, result] {
      if (!self || projectPath != self->projectPath_) return;  // gone, or another project now
      self->running_.remove(result->runId);
      self->results_[result->runId] = result;
      emit self->computed(result->runId);
    });
  });
  thread->setParent(this);
  threads_ << thread;
  connect(thread, &QThread::finished, this, [this, thread] {
    threads_.removeAll(thread);
    thread->deleteLater();
  });
  thread->start();
  return false;
}

RunPredictionPtr PredictionService::result(qint64 runId) const {
  const auto it = results_.find(runId);
  return it == results_.end() ? nullptr : it->second;
}

void PredictionService::clear() {
  results_.clear();
  running_.clear();
}

}  // namespace variate::ui
