#include "ui/workers/remote_runner.h"

#ifdef VARIATE_WITH_REMOTE
#include "engine/remote/worker_inference.h"
#endif

namespace variate::ui {

services::RemoteRunner* remoteRunner() {
#ifdef VARIATE_WITH_REMOTE
  static remote::WorkerInference runner;  // stateless: each call makes its own connection
  return &runner;
#else
  return nullptr;
#endif
}

}  // namespace variate::ui
