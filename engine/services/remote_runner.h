#pragma once
/// A run made by a worker (`variate worker`): the service binds the model here for its
/// outputs' columns, submits the run, and replays the job's events into the observers a
/// local run feeds, so that what it records and reports is what a local run would. The
/// gRPC client that does it lives in engine/remote (the engine does not depend on gRPC);
/// a front end built with it hands one in (RunSpec::remote).

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/mcmc/nuts_options.h"
#include "engine/services/data_input.h"
#include "engine/services/method.h"
#include "engine/services/run_observers.h"
#include "engine/target/parameter_layout.h"
#include "engine/vi/advi.h"

namespace variate::services {

/// A worker and how to reach it (the settings worker, token_file, tls_ca,
/// heartbeat_timeout).
struct WorkerAddress {
  std::string address;  ///< HOST:PORT
  std::string token_file;
  std::optional<std::string> tls_ca;
  double heartbeat_timeout = 15;
};

/// A run for a worker: the model's text and name, its data, and its settings as the
/// options a worker accepts (Settings::arguments with kAcceptedByWorker).
struct JobSubmission {
  Method method = Method::nuts;
  std::string model_name;
  std::string model_text;
  DataInput data;
  std::vector<std::string> arguments;
  std::vector<ChainStart> resume;  ///< more draws of a NUTS run, without warmup
};

/// How a followed job ended.
struct JobEnd {
  enum class State { finished, stopped, failed, interrupted, detached };
  State state = State::finished;
  std::string message;
  /// An ADVI job's fit, its family rebuilt on the layout follow() was given.
  std::optional<AdviFit> fit;
};

/// A failure of the remote run itself (unreachable, refused, gone); what was received is
/// kept.
class RemoteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Whether the job was stopped by someone other than this run's user (`variate cancel`, a
/// studio that follows it too): the run did not end as they asked, and says so.
inline bool cancelled_elsewhere(const JobEnd& end, const RunObservers& observers) {
  return end.state == JobEnd::State::stopped && !observers.stop_requested();
}

/// The worker went silent, or following was detached, while its job may go on there: a
/// NUTS run stays interrupted, to be followed again (reattached).
class JobGoesOnError : public RemoteError {
 public:
  using RemoteError::RemoteError;
};

/// What a job's events are replayed into.
struct JobEvents {
  /// The worker's facts, once, before anything else of the run; returns nothing.
  std::function<void(const RunFacts&)> started;
  SampleObserver* draws = nullptr;  ///< NUTS
  AdviObserver* elbo = nullptr;     ///< ADVI
  const ParameterLayout* layout = nullptr;  ///< ADVI: the layout its fit is rebuilt on
};

class RemoteRunner {
 public:
  virtual ~RemoteRunner() = default;

  /// Starts `job` on `worker` (uploading its data unless the worker holds it); returns the
  /// job's id. @throws RemoteError
  virtual std::string submit(const WorkerAddress& worker, const JobSubmission& job) = 0;
  /// The command that follows the job from elsewhere (`variate attach JOB --worker ...`).
  virtual std::string reattach_hint(const WorkerAddress& worker, const std::string& job) const = 0;
  /// Stops `job` if it can (a job the client will not follow); never throws.
  virtual void cancel(const WorkerAddress& worker, const std::string& job) noexcept = 0;
  /// Whether `job` is held paused on its worker. @throws RemoteError
  virtual bool paused(const WorkerAddress& worker, const std::string& job) = 0;

  /// Follows `job` from its first event to its end, replaying each into `events` in
  /// order; its messages go to observers.info, its connection's state to observers.link.
  /// observers.control's stop cancels the job, its pause holds it, its detach ends
  /// following while the job goes on (State::detached).
  /// @throws RemoteError when the worker is gone; what `events` throw.
  virtual JobEnd follow(const WorkerAddress& worker, const std::string& job, const JobEvents& events,
                        const RunObservers& observers) = 0;
};

}  // namespace variate::services
