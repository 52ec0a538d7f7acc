#include "ui/analysis/run_loader.h"

#include <QPointer>
#include <QThread>

#include "engine/store/project.h"

#include "ui/document/run_records.h"
#include "ui/threading/thread_handoff.h"

namespace variate::ui {

RunLoader::~RunLoader() {
  for (QThread* thread : threads_) thread->wait();
}

LoadedRun RunLoader::read(const QString& projectPath, qint64 runId) {
  LoadedRun result;
  result.projectPath = projectPath;
  result.runId = runId;
  try {
    const store::Project project(projectPath.toStdString());
    const store::RunInfo info = project.run(runId);
    LoadedDraws draws = readDraws(project, info);
    result.chains = std::move(draws.chains);
    result.states = std::move(draws.states);
    if (info.method != store::RunMethod::nuts) result.elbo = readElbo(project, runId);
    result.approximation = readApproximation(project, info);
    if (info.method == store::RunMethod::sbc) {
      for (const auto& replication : project.sbc_replications(runId)) result.sbc.add(replication);
    }
  } catch (const std::exception& e) {
    result.error = QString::fromStdString(e.what());
  }
  return result;
}

void RunLoader::load(const QString& projectPath, qint64 runId) {
  qRegisterMetaType<LoadedRunPtr>();
  ++pending_;
  QPointer<RunLoader> self(this);
  QThread* thread = QThread::create([self, projectPath, runId, this] {
    auto result = std::make_shared<const LoadedRun>(read(projectPath, runId));
    // Queued to the loader's thread; dropped if the loader is gone by then.
    postCall(this, [self, result] {
      if (!self) return;
      --self->pending_;
      emit self->loaded(result);
    });
  });
  thread->setParent(this);  // deleted with the loader, after its destructor waited
  threads_ << thread;
  connect(thread, &QThread::finished, this, [this, thread] {
    threads_.removeAll(thread);
    thread->deleteLater();
  });
  thread->start();
}

}  // namespace variate::ui
