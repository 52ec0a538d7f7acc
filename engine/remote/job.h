#pragma once
/// One job of a worker: a NUTS or ADVI run (services/sample.h, fit.h) made on its own
/// thread, into its folder (the model, job.pb, the event log, and for NUTS a project file
/// with every draw); its clients write the run's outputs from the events. It runs whatever
/// happens to the clients that follow it; pause holds its chains, cancel stops them
/// keeping their draws.
///
///   jobs-dir/<job>/model.vmod  job.pb  events.log  job.variate

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "engine/remote/job_log.h"
#include "engine/services/run_control.h"
#include "engine/services/run_spec.h"
#include "variate_worker.pb.h"

namespace variate::remote {

class Job {
 public:
  /// A new job (queued) in `folder`, created with its model and job.pb. `data_path` is the
  /// data file on this host ("" when the model reads none).
  /// @throws std::runtime_error when the folder cannot be written.
  Job(std::filesystem::path folder, v1::JobInfo info, std::string data_path);
  /// A job a previous worker left in `folder`; one that had not ended is now interrupted.
  /// @throws std::runtime_error when its files cannot be read.
  static std::shared_ptr<Job> load(const std::filesystem::path& folder);
  /// Stops and waits for the job's thread.
  ~Job();
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;

  /// Starts the run on its thread; `ended` is called on that thread once it ended.
  void start(std::function<void()> ended);
  /// Ends the run at its next iteration (its draws are kept); a queued job ends at once.
  /// `reason` ("cancelled by ann@host") becomes the ended job's message.
  void cancel(const std::string& reason);
  /// "" or why not (a job on several processes cannot pause: its ranks would time out).
  std::string pause();
  void resume();
  /// Cancels as the worker itself stops: the job ends interrupted.
  void interrupt();

  const std::string& id() const { return id_; }
  /// The job's description and state (without the model's text unless asked).
  v1::JobInfo info(bool with_model_text) const;
  v1::JobState state() const;
  bool ended() const;
  /// Waits until the job has ended or `timeout` has passed; whether it ended.
  bool wait_until_ended(std::chrono::milliseconds timeout) const;
  const JobLog& log() const { return log_; }

 private:
  class Events;
  Job(std::filesystem::path folder, v1::JobInfo info, std::string data_path, bool loaded);
  services::RunSpec spec(const v1::JobInfo& info) const;
  void run();
  void finish(v1::JobState state, int exit_code, const std::string& message);
  void save_info() const;

  std::filesystem::path folder_;
  std::string id_;
  std::string data_path_;
  JobLog log_;
  mutable std::mutex mutex_;
  v1::JobInfo info_;
  services::RunControl control_;  // pause and cancel, honoured by the run
  int ranks_ = 1;
  std::atomic<bool> interrupted_{false};
  std::string cancel_reason_;  // guarded by mutex_
  std::thread thread_;
};

}  // namespace variate::remote
