#include "ui/runs/inference_worker.h"

#include "ui/threading/thread_handoff.h"

namespace variate::ui {

void InferenceWorker::run(const RunRequest& request) {
  // The signals go to the EngineController on the UI thread, which takes them over.
  RunContext context{control_, mailbox_,
                     [this](const RunStart& start) { emitToOtherThreads([&] { emit started(start); }); },
                     [this](const QString& message) { emitToOtherThreads([&] { emit logged(message); }); },
                     [this](const QString& state) { emitToOtherThreads([&] { emit linkChanged(state); }); },
                     [this] { emitToOtherThreads([&] { emit foundPaused(); }); }};
  const RunOutcome outcome = runRequest(request, context);
  emitToOtherThreads([&] { emit ended(outcome); });
}

}  // namespace variate::ui
