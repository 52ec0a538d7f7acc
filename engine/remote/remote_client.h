#pragma once
/// A client of one worker: the calls of the protocol with the token attached and gRPC's
/// statuses turned into messages a user can act on (RemoteError), data uploaded once per
/// content hash, and an event stream that survives a broken connection by resuming after
/// the last event it delivered.
///
///   RemoteClient client(WorkerEndpoint::from_files("gpu1:7070", "token", "ca.pem"));
///   const std::string job = client.submit(request);
///   client.follow(job, 0, [](const v1::RunEvent& e) { ... }, {});

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/services/remote_runner.h"

#include "variate_worker.grpc.pb.h"

namespace variate::remote {

using services::RemoteError;

struct WorkerEndpoint {
  std::string address;  // HOST:PORT
  std::string token;
  std::optional<std::string> ca_pem;  // TLS, checking the worker's certificate against it

  /// @throws RemoteError when a file cannot be read (or the token file is open to others).
  static WorkerEndpoint from_files(const std::string& address, const std::string& token_file,
                                   const std::optional<std::string>& ca_file);
};

/// What a following stream is doing, for a UI to show.
enum class LinkState { connected, reconnecting, gone };

struct FollowOptions {
  /// Seconds without a word before the worker counts as gone; at least three of the
  /// worker's heartbeat intervals (it says in Hello).
  double heartbeat_timeout = 15;
  const std::atomic<bool>* detach = nullptr;  // checked every 100 ms: stop following (the job goes on)
  std::function<void(LinkState)> link;  // called on each change
};

class RemoteClient {
 public:
  explicit RemoteClient(WorkerEndpoint endpoint);

  const std::string& address() const { return endpoint_.address; }

  /// @throws RemoteError (unreachable, refused token, TLS failure) within `timeout`.
  v1::HelloReply hello(std::chrono::milliseconds timeout = std::chrono::seconds(10)) const;
  /// The worker's reference to the data file at `path`, uploading it unless it holds it.
  v1::DataRef put_data(const std::string& path) const;
  /// The file at `path` as format `format` ("json", "csv", or "idx": a file a data set names).
  v1::DataRef put_file(const std::string& path, const std::string& format) const;
  /// Writes the data set `ref` into `path`.
  void download_data(const v1::DataRef& ref, const std::string& path) const;
  /// The new job's id.
  std::string submit(const v1::SubmitRequest& request) const;
  v1::JobInfo job(const std::string& id) const;
  std::vector<v1::JobInfo> jobs() const;
  /// The job's state once the cancel took effect (the worker waits a while for it).
  v1::JobState cancel(const std::string& id) const;
  void pause(const std::string& id) const;
  void resume(const std::string& id) const;

  /// Hands every event of job `id` from `from_seq` on to `on_event`, in order and each
  /// once (heartbeats are not handed over), until the job's last event: true; false when
  /// `options.detach` ended it first. A broken stream is reopened after the last event
  /// delivered, with growing pauses, until options.heartbeat_timeout passes without a
  /// word; then RemoteError says the worker is gone.
  /// @throws RemoteError; whatever `on_event` throws.
  bool follow(const std::string& id, uint64_t from_seq, const std::function<void(const v1::RunEvent&)>& on_event,
              const FollowOptions& options) const;

 private:
  using JobCall = grpc::Status (v1::Worker::Stub::*)(grpc::ClientContext*, const v1::JobRequest&, v1::JobReply*);
  /// Cancel, Pause or Resume of job `id`: the state the worker answers with.
  v1::JobState job_call(JobCall call, const std::string& id, const std::string& doing,
                        std::chrono::milliseconds timeout = std::chrono::seconds(30)) const;
  void prepare(grpc::ClientContext& context, std::chrono::milliseconds timeout) const;
  [[noreturn]] void fail(const grpc::Status& status, const std::string& doing) const;

  WorkerEndpoint endpoint_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Worker::Stub> stub_;
};

/// "ann@host": who this process runs as, where (shown with the jobs it submits or cancels).
std::string client_label();

/// "job 0123abcd… on HOST:PORT: STATE" words for a job state.
std::string state_name(v1::JobState state);

}  // namespace variate::remote
