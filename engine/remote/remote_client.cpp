#include "engine/remote/remote_client.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include <grpcpp/grpcpp.h>

#include "engine/io/data_file.h"

#include "engine/remote/auth.h"
#include "engine/remote/tls_files.h"
#include "engine/remote/content_hash.h"
#include "engine/remote/limits.h"

namespace variate::remote {
namespace {

std::string data_format(const std::string& path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  return extension == ".csv" ? "csv" : "json";
}

}  // namespace

WorkerEndpoint WorkerEndpoint::from_files(const std::string& address, const std::string& token_file,
                                          const std::optional<std::string>& ca_file) {
  WorkerEndpoint endpoint;
  endpoint.address = address;
  try {
    endpoint.token = read_token_file(token_file);
  } catch (const std::runtime_error& e) {
    throw RemoteError(e.what());
  }
  try {
    if (ca_file) endpoint.ca_pem = read_certificate_file(*ca_file, "--tls-ca");
  } catch (const std::exception& e) {
    throw RemoteError(e.what());
  }
  return endpoint;
}

std::string state_name(v1::JobState state) {
  switch (state) {
    case v1::QUEUED: return "queued";
    case v1::RUNNING: return "running";
    case v1::PAUSED: return "paused";
    case v1::FINISHED: return "finished";
    case v1::STOPPED: return "stopped";
    case v1::FAILED: return "failed";
    case v1::INTERRUPTED: return "interrupted";
    default: return "unknown";
  }
}

RemoteClient::RemoteClient(WorkerEndpoint endpoint) : endpoint_(std::move(endpoint)) {
  grpc::ChannelArguments arguments;
  arguments.SetMaxReceiveMessageSize(kMaxMessageBytes);
  arguments.SetMaxSendMessageSize(kMaxMessageBytes);
  arguments.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, kKeepaliveMs);
  arguments.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, kKeepaliveTimeoutMs);
  arguments.SetInt(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
  // Reconnect quickly after a worker restarts (the default backoff grows to minutes).
  arguments.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 200);
  arguments.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 2000);
  const auto credentials = endpoint_.ca_pem ? grpc::SslCredentials({*endpoint_.ca_pem, "", ""})
                                            : grpc::InsecureChannelCredentials();
  channel_ = grpc::CreateCustomChannel(endpoint_.address, credentials, arguments);
  stub_ = v1::Worker::NewStub(channel_);
}

void RemoteClient::prepare(grpc::ClientContext& context, std::chrono::milliseconds timeout) const {
  add_token(context, endpoint_.token);
  context.set_deadline(std::chrono::system_clock::now() + timeout);
}

void RemoteClient::fail(const grpc::Status& status, const std::string& doing) const {
  const std::string where = "the worker " + endpoint_.address;
  switch (status.error_code()) {
    case grpc::StatusCode::UNAUTHENTICATED:
      throw RemoteError(where + " refused the token (" + status.error_message() + ")");
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      throw RemoteError("cannot reach " + where + " to " + doing + ": " + status.error_message() +
                        (endpoint_.ca_pem ? "" : " (if the worker uses TLS, give --tls-ca)"));
    default:
      throw RemoteError(where + " cannot " + doing + ": " + status.error_message());
  }
}

v1::HelloReply RemoteClient::hello(std::chrono::milliseconds timeout) const {
  grpc::ClientContext context;
  prepare(context, timeout);
  context.set_wait_for_ready(false);
  v1::HelloRequest request;
  request.set_client_version(kProtocol);
  v1::HelloReply reply;
  if (const grpc::Status status = stub_->Hello(&context, request, &reply); !status.ok()) fail(status, "greet it");
  if (reply.protocol() != kProtocol) {
    throw RemoteError("the worker " + endpoint_.address + " speaks " + reply.protocol() + ", not " + kProtocol);
  }
  return reply;
}

v1::DataRef RemoteClient::put_data(const std::string& path) const { return put_file(path, data_format(path)); }

v1::DataRef RemoteClient::put_file(const std::string& path, const std::string& format) const {
  v1::DataRef ref;
  try {
    ref.set_sha256(file_sha256_hex(path));
  } catch (const std::runtime_error&) {
    throw RemoteError("cannot read the data file '" + path + "'");
  }
  ref.set_size(static_cast<int64_t>(std::filesystem::file_size(path)));
  ref.set_format(format);
  {
    grpc::ClientContext context;
    prepare(context, std::chrono::seconds(30));
    v1::HasDataReply reply;
    if (const grpc::Status status = stub_->HasData(&context, ref, &reply); !status.ok()) fail(status, "check its data");
    if (reply.present()) return ref;
  }
  // The file goes up in chunks, read as they are sent.
  grpc::ClientContext context;
  prepare(context, std::chrono::hours(1));
  v1::DataRef stored;
  std::unique_ptr<grpc::ClientWriter<v1::DataChunk>> writer = stub_->UploadData(&context, &stored);
  std::ifstream file(path, std::ios::binary);
  std::string buffer(static_cast<size_t>(kDataChunkBytes), '\0');
  bool first = true;
  while (first || file) {
    file.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    v1::DataChunk chunk;
    if (first) *chunk.mutable_data() = ref;
    first = false;
    chunk.set_content(buffer.data(), static_cast<size_t>(file.gcount()));
    if (!writer->Write(chunk)) break;
  }
  writer->WritesDone();
  if (const grpc::Status status = writer->Finish(); !status.ok()) fail(status, "take the data '" + path + "'");
  return stored;
}

void RemoteClient::download_data(const v1::DataRef& ref, const std::string& path) const {
  grpc::ClientContext context;
  prepare(context, std::chrono::hours(1));
  std::unique_ptr<grpc::ClientReader<v1::DataChunk>> reader = stub_->DownloadData(&context, ref);
  std::string bytes;
  v1::DataChunk chunk;
  while (reader->Read(&chunk)) bytes += chunk.content();
  if (const grpc::Status status = reader->Finish(); !status.ok()) fail(status, "send the job's data");
  if (sha256_hex(bytes) != ref.sha256()) throw RemoteError("the job's data arrived damaged (its SHA-256 differs)");
  std::ofstream file(path, std::ios::binary);
  file << bytes;
  if (!file) throw RemoteError("cannot write '" + path + "'");
}

std::string RemoteClient::submit(const v1::SubmitRequest& request) const {
  grpc::ClientContext context;
  prepare(context, std::chrono::seconds(60));
  v1::SubmitReply reply;
  if (const grpc::Status status = stub_->Submit(&context, request, &reply); !status.ok()) fail(status, "take the run");
  return reply.job_id();
}

v1::JobInfo RemoteClient::job(const std::string& id) const {
  grpc::ClientContext context;
  prepare(context, std::chrono::seconds(30));
  v1::JobRequest request;
  request.set_job_id(id);
  v1::JobInfo reply;
  if (const grpc::Status status = stub_->GetJob(&context, request, &reply); !status.ok()) fail(status, "describe job " + id);
  return reply;
}

std::vector<v1::JobInfo> RemoteClient::jobs() const {
  grpc::ClientContext context;
  prepare(context, std::chrono::seconds(30));
  v1::ListJobsReply reply;
  if (const grpc::Status status = stub_->ListJobs(&context, {}, &reply); !status.ok()) fail(status, "list its jobs");
  return {reply.jobs().begin(), reply.jobs().end()};
}

v1::JobState RemoteClient::job_call(JobCall call, const std::string& id, const std::string& doing,
                                    std::chrono::milliseconds timeout) const {
  grpc::ClientContext context;
  prepare(context, timeout);
  v1::JobRequest request;
  request.set_job_id(id);
  request.set_client_label(client_label());
  v1::JobReply reply;
  if (const grpc::Status status = (stub_.get()->*call)(&context, request, &reply); !status.ok()) fail(status, doing + " job " + id);
  v1::JobState state = v1::JOB_STATE_UNSPECIFIED;
  v1::JobState_Parse(reply.state(), &state);
  return state;
}

v1::JobState RemoteClient::cancel(const std::string& id) const {
  // The worker answers once the job has ended, or after kCancelWait.
  return job_call(&v1::Worker::Stub::Cancel, id, "cancel", kCancelWait + std::chrono::seconds(30));
}

std::string client_label() {
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  const char* user = std::getenv("USER");
  return std::string(user ? user : "someone") + "@" + host;
}
void RemoteClient::pause(const std::string& id) const { job_call(&v1::Worker::Stub::Pause, id, "pause"); }
void RemoteClient::resume(const std::string& id) const { job_call(&v1::Worker::Stub::Resume, id, "resume"); }

namespace {

using Clock = std::chrono::steady_clock;

// Where a follow stands across its streams: the next event it wants, when the worker last
// said anything, the pause before the next try, and the link as the UI was told it.
struct Following {
  const FollowOptions& options;
  uint64_t next = 0;
  std::chrono::milliseconds patience{0};
  Clock::time_point last_word = Clock::now();
  std::chrono::milliseconds pause{100};
  LinkState link = LinkState::reconnecting;

  void set_link(LinkState state) {
    if (state == link) return;
    link = state;
    if (options.link) options.link(state);
  }
  bool detach_requested() const { return options.detach && options.detach->load(); }
  bool silent_too_long() const { return Clock::now() - last_word > patience; }
};

struct StreamEnd {
  bool finished = false;  // the job's last event came
  bool detached = false;
  bool silent = false;  // the watchdog ended a silent stream
  grpc::Status status;
};

// One Attach stream, read until the job's last event, a detach, the worker silent past the
// patience (a watchdog ends the read) or the stream's end.
StreamEnd read_stream(v1::Worker::Stub& stub, const std::string& token, const std::string& id, Following& f,
                      const std::function<void(const v1::RunEvent&)>& on_event) {
  grpc::ClientContext context;
  add_token(context, token);
  v1::AttachRequest request;
  request.set_job_id(id);
  request.set_from_seq(f.next);
  std::unique_ptr<grpc::ClientReader<v1::RunEvent>> reader = stub.Attach(&context, request);
  std::atomic<bool> reading{true};
  std::atomic<int64_t> last_ms{0};
  const auto since_start = [start = Clock::now()] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
  };
  StreamEnd end;
  std::atomic<bool> silent{false}, detached{false};
  std::thread watchdog([&] {
    while (reading) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (f.detach_requested()) {
        detached = true;
        context.TryCancel();
        return;
      }
      if (since_start() - last_ms.load() > f.patience.count() && f.silent_too_long()) {
        silent = true;
        context.TryCancel();
        return;
      }
    }
  });
  v1::RunEvent event;
  try {
    while (reader->Read(&event)) {
      last_ms = since_start();
      f.last_word = Clock::now();
      f.set_link(LinkState::connected);
      f.pause = std::chrono::milliseconds(100);
      if (event.has_heartbeat()) continue;
      if (event.seq() != f.next) continue;  // already delivered
      ++f.next;
      on_event(event);
      if (event.has_finished()) {
        end.finished = true;
        context.TryCancel();
        break;
      }
    }
  } catch (...) {
    reading = false;
    context.TryCancel();
    watchdog.join();
    throw;
  }
  reading = false;
  watchdog.join();
  end.status = reader->Finish();
  end.silent = silent;
  end.detached = detached;
  return end;
}

bool is_final(const grpc::Status& status) {
  const grpc::StatusCode code = status.error_code();
  return code == grpc::StatusCode::UNAUTHENTICATED || code == grpc::StatusCode::NOT_FOUND ||
         code == grpc::StatusCode::INVALID_ARGUMENT || code == grpc::StatusCode::OUT_OF_RANGE;
}

}  // namespace

bool RemoteClient::follow(const std::string& id, uint64_t from_seq,
                          const std::function<void(const v1::RunEvent&)>& on_event,
                          const FollowOptions& options) const {
  double timeout = options.heartbeat_timeout;
  try {  // a worker with slow heartbeats gets three of them
    timeout = std::max(timeout, 3 * hello(std::chrono::seconds(5)).heartbeat_seconds());
  } catch (const RemoteError&) {
    // unreachable now: the loop below retries until the timeout
  }
  Following f{options};
  f.next = from_seq;
  f.patience = std::chrono::milliseconds(static_cast<int64_t>(timeout * 1000));
  std::string last_problem = "no answer";
  while (true) {
    if (f.detach_requested()) return false;
    const StreamEnd end = read_stream(*stub_, endpoint_.token, id, f, on_event);
    if (end.finished) return true;
    if (end.detached) return false;
    if (is_final(end.status)) fail(end.status, "follow job " + id);
    if (!end.silent) {
      // A stream ended without the job's last event: the worker is stopping, or the link broke.
      last_problem = end.status.ok() ? "the worker closed the stream" : end.status.error_message();
    }
    f.set_link(LinkState::reconnecting);
    if (f.silent_too_long()) {
      f.set_link(LinkState::gone);
      throw RemoteError("the worker " + endpoint_.address + " is gone: no word from it for " +
                        std::to_string(static_cast<int>(timeout)) + " s (" + last_problem +
                        "); job " + id + " may still run there; " + std::to_string(f.next) + " events received");
    }
    // Growing pauses between tries, but none past the moment the worker counts as gone.
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(f.last_word + f.patience - Clock::now());
    std::this_thread::sleep_for(
        std::max(std::chrono::milliseconds(10), std::min(f.pause, left + std::chrono::milliseconds(10))));
    f.pause = std::min(f.pause * 2, std::chrono::milliseconds(2000));
  }
}

}  // namespace variate::remote
