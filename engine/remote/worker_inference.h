#pragma once
/// The services' client of remote workers (services::RemoteRunner) over a RemoteClient:
/// submits a run (uploading its data unless the worker holds it) and replays its job's
/// events, in order, into the observers a local run feeds; the run's control becomes calls
/// (a stop cancels the job, a pause holds it, a detach ends following while it goes on).
/// This is the one replay of a job's events: `variate sample|fit --worker`, `variate
/// attach` and the studio's runs on workers all come through it.

#include "engine/services/remote_runner.h"

namespace variate::remote {

class WorkerInference : public services::RemoteRunner {
 public:
  std::string submit(const services::WorkerAddress& worker, const services::JobSubmission& job) override;
  std::string reattach_hint(const services::WorkerAddress& worker, const std::string& job) const override;
  void cancel(const services::WorkerAddress& worker, const std::string& job) noexcept override;
  bool paused(const services::WorkerAddress& worker, const std::string& job) override;
  services::JobEnd follow(const services::WorkerAddress& worker, const std::string& job,
                          const services::JobEvents& events, const services::RunObservers& observers) override;
};

}  // namespace variate::remote
