#include "ui/engine/inference_worker.h"

namespace variate::ui {

void InferenceWorker::run(const RunRequest& request) {
  RunContext context{control_, mailbox_, [this](const RunStart& start) { emit started(start); },
                     [this](const QString& message) { emit logged(message); }};
  RunOutcome outcome;
  try {
    outcome = request.config.method == InferenceMethod::Advi ? runAdvi(request, context)
                                                             : runNuts(request, context);
  } catch (const std::exception& e) {  // the run functions catch their own; this is a backstop
    outcome.status = RunStatus::Failed;
    outcome.message = QString::fromStdString(e.what());
  }
  emit ended(outcome);
}

}  // namespace variate::ui
