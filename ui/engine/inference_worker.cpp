#include "ui/engine/inference_worker.h"

#include <stdexcept>

#include "ui/engine/thread_handoff.h"

namespace variate::ui {

void InferenceWorker::run(const RunRequest& request) {
  // The signals go to the EngineController on the UI thread, which takes them over.
  RunContext context{control_, mailbox_,
                     [this](const RunStart& start) { emitToOtherThreads([&] { emit started(start); }); },
                     [this](const QString& message) { emitToOtherThreads([&] { emit logged(message); }); },
                     [this](const QString& state) { emitToOtherThreads([&] { emit linkChanged(state); }); },
                     [this] { emitToOtherThreads([&] { emit foundPaused(); }); }};
  RunOutcome outcome;
  try {
    if (request.config.method == InferenceMethod::Amortized) {
      outcome = runAmortized(request, context);
    } else if (request.config.method == InferenceMethod::Advi) {
      outcome = runAdvi(request, context);
    } else if (request.config.method == InferenceMethod::Optimize) {
      outcome = runOptimize(request, context);
    } else if (request.config.method == InferenceMethod::Pathfinder) {
      outcome = runPathfinder(request, context);
    } else if (request.config.worker.isRemote()) {
#ifdef VARIATE_WITH_REMOTE
      outcome = runRemoteNuts(request, context);
#else
      throw std::runtime_error("this studio was built without remote workers (gRPC was not found)");
#endif
    } else {
      outcome = runNuts(request, context);
    }
  } catch (const std::exception& e) {  // the run functions catch their own; this is a backstop
    outcome.status = RunStatus::Failed;
    outcome.message = QString::fromStdString(e.what());
  }
  emitToOtherThreads([&] { emit ended(outcome); });
}

}  // namespace variate::ui
