#include "engine/remote/worker_service.h"

#include <chrono>
#include <fstream>
#include <random>

#include <ATen/detail/CUDAHooksInterface.h>
#include <torch/version.h>

#include "engine/core/threading.h"

#include "engine/remote/auth.h"
#include "engine/remote/content_hash.h"
#include "engine/remote/idx_references.h"
#include "engine/remote/limits.h"
#include "engine/remote/request_checks.h"
#include "engine/core/version.h"

namespace variate::remote {
namespace {

std::string new_job_id() {
  static std::mutex mutex;
  static std::mt19937_64 random{std::random_device{}()};
  std::lock_guard<std::mutex> lock(mutex);
  static const char* hex = "0123456789abcdef";
  uint64_t bits = random();
  std::string id;
  for (int i = 0; i < 16; ++i, bits >>= 4) id += hex[bits & 15];
  return id;
}

int64_t unix_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

grpc::Status invalid(const std::string& why) { return {grpc::StatusCode::INVALID_ARGUMENT, why}; }

}  // namespace

WorkerService::WorkerService(WorkerSettings settings) : settings_(std::move(settings)), lock_(settings_.jobs_dir) {
  std::filesystem::create_directories(settings_.jobs_dir / "data");
  std::vector<std::pair<int64_t, std::shared_ptr<Job>>> found;
  for (const auto& entry : std::filesystem::directory_iterator(settings_.jobs_dir)) {
    if (!entry.is_directory() || !check_job_id(entry.path().filename().string()).empty()) continue;
    try {
      std::shared_ptr<Job> job = Job::load(entry.path());
      found.emplace_back(job->info(false).submitted_unix_ms(), job);
    } catch (const std::exception&) {
      // a folder a job never finished writing: not a job
    }
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [when, job] : found) {
    order_.push_back(job->id());
    jobs_[job->id()] = job;
  }
}

WorkerService::~WorkerService() {
  interrupt_all();
  std::map<std::string, std::shared_ptr<Job>> jobs;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs.swap(jobs_);
  }
  jobs.clear();  // each waits for its thread
}

void WorkerService::interrupt_all() {
  std::lock_guard<std::mutex> lock(mutex_);
  stopping_ = true;
  for (auto& [id, job] : jobs_) {
    if (!job->ended()) job->interrupt();
  }
}

std::filesystem::path WorkerService::data_path(const v1::DataRef& ref) const {
  return settings_.jobs_dir / "data" / (ref.sha256() + "." + ref.format());
}

grpc::Status WorkerService::find(const std::string& id, std::shared_ptr<Job>& job) const {
  if (!check_job_id(id).empty()) return {grpc::StatusCode::NOT_FOUND, "no job '" + id.substr(0, 40) + "' on this worker"};
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = jobs_.find(id);
  if (found == jobs_.end()) return {grpc::StatusCode::NOT_FOUND, "no job '" + id + "' on this worker"};
  job = found->second;
  return grpc::Status::OK;
}

int WorkerService::running_jobs() const {
  int running = 0;
  for (const auto& [id, job] : jobs_) {
    const v1::JobState state = job->state();
    running += state == v1::RUNNING || state == v1::PAUSED;
  }
  return running;
}

void WorkerService::schedule() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_) return;
  int running = running_jobs();
  for (const std::string& id : order_) {
    if (running >= settings_.max_jobs) break;
    const std::shared_ptr<Job>& job = jobs_[id];
    if (job->state() != v1::QUEUED) continue;
    job->start([this] { schedule(); });
    ++running;
  }
}

grpc::Status WorkerService::Hello(grpc::ServerContext* context, const v1::HelloRequest*, v1::HelloReply* reply) {
  if (grpc::Status status = authorize(*context, settings_.token); !status.ok()) return status;
  reply->set_protocol(kProtocol);
  reply->set_worker_version(variate::version());
  reply->set_torch_version(TORCH_VERSION);
  reply->set_cores(hardware_threads());
  reply->add_devices("cpu");
  const int gpus = at::detail::getCUDAHooks().getNumGPUs();
  for (int i = 0; i < gpus; ++i) reply->add_devices("cuda:" + std::to_string(i));
  reply->set_max_jobs(settings_.max_jobs);
  reply->set_max_ranks(settings_.max_ranks);
  reply->set_max_message_bytes(kMaxMessageBytes);
  reply->set_max_data_bytes(settings_.max_data_bytes);
  reply->set_heartbeat_seconds(settings_.heartbeat_seconds);
  std::lock_guard<std::mutex> lock(mutex_);
  reply->set_running_jobs(running_jobs());
  return grpc::Status::OK;
}

grpc::Status WorkerService::HasData(grpc::ServerContext* context, const v1::DataRef* request, v1::HasDataReply* reply) {
  if (grpc::Status status = authorize(*context, settings_.token); !status.ok()) return status;
  if (std::string problem = check_data_ref(*request, settings_.max_data_bytes); !problem.empty()) return invalid(problem);
  reply->set_present(std::filesystem::exists(data_path(*request)));
  return grpc::Status::OK;
}

grpc::Status WorkerService::UploadData(grpc::ServerContext* context, grpc::ServerReader<v1::DataChunk>* reader,
                                       v1::DataRef* reply) {
  if (grpc::Status status = authorize(*context, settings_.token); !status.ok()) return status;
  v1::DataChunk chunk;
  if (!reader->Read(&chunk)) return invalid("an upload without chunks");
  const v1::DataRef declared = chunk.data();
  if (std::string problem = check_data_ref(declared, settings_.max_data_bytes); !problem.empty()) return invalid(problem);
  const std::filesystem::path target = data_path(declared);
  const std::filesystem::path part = target.string() + "." + new_job_id() + ".part";
  // Chunks go straight to a part file, hashed as they come: a data set is never whole in memory.
  struct PartFile {
    std::filesystem::path path;
    bool keep = false;
    ~PartFile() {
      std::error_code ignored;
      if (!keep) std::filesystem::remove(path, ignored);
    }
  } guard{part};
  std::ofstream file(part, std::ios::binary);
  Sha256 hash;
  int64_t received = 0;
  do {
    received += static_cast<int64_t>(chunk.content().size());
    if (received > declared.size()) {
      return invalid("the upload is longer than the " + std::to_string(declared.size()) + " bytes it declared");
    }
    hash.add(chunk.content());
    file.write(chunk.content().data(), static_cast<std::streamsize>(chunk.content().size()));
  } while (reader->Read(&chunk));
  file.close();
  if (received != declared.size()) {
    return invalid("the upload ended after " + std::to_string(received) + " of " + std::to_string(declared.size()) + " bytes");
  }
  if (hash.hex() != declared.sha256()) return invalid("the upload's SHA-256 is not the one it declared");
  if (!file) return {grpc::StatusCode::INTERNAL, "the worker cannot store the data"};
  guard.keep = true;
  std::filesystem::rename(part, target);
  *reply = declared;
  return grpc::Status::OK;
}

grpc::Status WorkerService::DownloadData(grpc::ServerContext* context, const v1::DataRef* request,
                                         grpc::ServerWriter<v1::DataChunk>* writer) {
  if (grpc::Status status = authorize(*context, settings_.token); !status.ok()) return status;
  if (std::string problem = check_data_ref(*request, settings_.max_data_bytes); !problem.empty()) return invalid(problem);
  std::ifstream file(data_path(*request), std::ios::binary);
  if (!file) return {grpc::StatusCode::NOT_FOUND, "this worker holds no such data set"};
  std::string buffer(static_cast<size_t>(kDataChunkBytes), '\0');
  bool first = true;
  while (file) {
    file.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    v1::DataChunk chunk;
    if (first) *chunk.mutable_data() = *request;
    first = false;
    chunk.set_content(buffer.data(), static_cast<size_t>(file.gcount()));
    if (!writer->Write(chunk)) break;
  }
  return grpc::Status::OK;
}

grpc::Status WorkerService::Submit(grpc::ServerContext* context, const v1::SubmitRequest* request,
                                   v1::SubmitReply* reply) {
  if (grpc::Status status = authorize(*context, settings_.token); !status.ok()) return status;
  if (std::string problem = check_submit(*request, settings_.max_ranks); !problem.empty()) return invalid(problem);
  std::string data_file;
  if (request->has_data()) {
    if (request->data().size() > settings_.max_data_bytes) return invalid("the data set is larger than this worker takes");
    const std::filesystem::path path = data_path(request->data());
    if (!std::filesystem::exists(path)) return {grpc::StatusCode::FAILED_PRECONDITION, "upload the data set first"};
    if (request->data().format() == "idx") return invalid("a job's data set is CmdStan JSON or CSV, not an IDX file");
    data_file = path.string();
    if (request->data().format() == "json") {
      std::ifstream file(path, std::ios::binary);
      const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
      const std::string problem = check_idx_references(text, [&](const std::string& name) {
        return std::filesystem::exists(settings_.jobs_dir / "data" / name);
      });
      if (!problem.empty()) return invalid(problem);
    }
  }
  v1::JobInfo info;
  info.set_job_id(new_job_id());
  info.set_command(request->command());
  info.set_model_name(request->model_name());
  info.set_model_text(request->model_text());
  if (request->has_data()) *info.mutable_data() = request->data();
  info.set_data_name(request->data_name());
  *info.mutable_arguments() = request->arguments();
  info.set_submitted_unix_ms(unix_ms());
  info.set_client_label(request->client_label());
  *info.mutable_resume() = request->resume();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return {grpc::StatusCode::UNAVAILABLE, "the worker is stopping"};
    try {
      auto job = std::make_shared<Job>(settings_.jobs_dir / info.job_id(), info, data_file);
      jobs_[info.job_id()] = job;
      order_.push_back(info.job_id());
    } catch (const std::exception& e) {
      return {grpc::StatusCode::INTERNAL, e.what()};
    }
  }
  reply->set_job_id(info.job_id());
  schedule();
  return grpc::Status::OK;
}

grpc::Status WorkerService::Attach(grpc::ServerContext* context, const v1::AttachRequest* request,
                                   grpc::ServerWriter<v1::RunEvent>* writer) {
  if (grpc::Status status = authorize(*context, settings_.token); !status.ok()) return status;
  std::shared_ptr<Job> job;
  if (grpc::Status status = find(request->job_id(), job); !status.ok()) return status;
  const JobLog& log = job->log();
  if (request->from_seq() > log.size() && log.closed()) {
    return {grpc::StatusCode::OUT_OF_RANGE, "job " + request->job_id() + " has " + std::to_string(log.size()) + " events"};
  }
  const auto beat = std::chrono::milliseconds(static_cast<int64_t>(settings_.heartbeat_seconds * 1000));
  uint64_t seq = request->from_seq();
  while (!context->IsCancelled()) {
    if (std::optional<v1::RunEvent> event = log.wait_for(seq, std::chrono::steady_clock::now() + beat)) {
      if (!writer->Write(*event)) break;  // the client is gone
      ++seq;
      continue;
    }
    if (log.closed() && seq >= log.size()) break;  // every event sent
    v1::RunEvent heartbeat;
    heartbeat.set_seq(log.size());
    heartbeat.mutable_heartbeat()->set_unix_ms(unix_ms());
    if (!writer->Write(heartbeat)) break;
  }
  return grpc::Status::OK;
}

grpc::Status WorkerService::Cancel(grpc::ServerContext* context, const v1::JobRequest* request, v1::JobReply* reply) {
  if (grpc::Status status = authorize(*context, settings_.token); !status.ok()) return status;
  std::shared_ptr<Job> job;
  if (grpc::Status status = find(request->job_id(), job); !status.ok()) return status;
  const std::string label = request->client_label().empty() ? context->peer() : request->client_label();
  if (std::string problem = check_name("the client's label", label); !problem.empty()) {
    return {grpc::StatusCode::INVALID_ARGUMENT, problem};
  }
  job->cancel("cancelled by " + label);
  // The state after the cancel, not before it: a run ends at its next iteration.
  job->wait_until_ended(kCancelWait);
  reply->set_state(v1::JobState_Name(job->state()));
  return grpc::Status::OK;
}

grpc::Status WorkerService::Pause(grpc::ServerContext* context, const v1::JobRequest* request, v1::JobReply* reply) {
  if (grpc::Status status = authorize(*context, settings_.token); !status.ok()) return status;
  std::shared_ptr<Job> job;
  if (grpc::Status status = find(request->job_id(), job); !status.ok()) return status;
  if (std::string problem = job->pause(); !problem.empty()) return {grpc::StatusCode::FAILED_PRECONDITION, problem};
  reply->set_state(v1::JobState_Name(job->state()));
  return grpc::Status::OK;
}

grpc::Status WorkerService::Resume(grpc::ServerContext* context, const v1::JobRequest* request, v1::JobReply* reply) {
  if (grpc::Status status = authorize(*context, settings_.token); !status.ok()) return status;
  std::shared_ptr<Job> job;
  if (grpc::Status status = find(request->job_id(), job); !status.ok()) return status;
  job->resume();
  reply->set_state(v1::JobState_Name(job->state()));
  return grpc::Status::OK;
}

grpc::Status WorkerService::GetJob(grpc::ServerContext* context, const v1::JobRequest* request, v1::JobInfo* reply) {
  if (grpc::Status status = authorize(*context, settings_.token); !status.ok()) return status;
  std::shared_ptr<Job> job;
  if (grpc::Status status = find(request->job_id(), job); !status.ok()) return status;
  *reply = job->info(true);
  return grpc::Status::OK;
}

grpc::Status WorkerService::ListJobs(grpc::ServerContext* context, const v1::ListJobsRequest*,
                                     v1::ListJobsReply* reply) {
  if (grpc::Status status = authorize(*context, settings_.token); !status.ok()) return status;
  std::lock_guard<std::mutex> lock(mutex_);
  for (const std::string& id : order_) *reply->add_jobs() = jobs_.at(id)->info(false);
  return grpc::Status::OK;
}

grpc::Status WorkerService::FetchDraws(grpc::ServerContext* context, const v1::FetchDrawsRequest* request,
                                       grpc::ServerWriter<v1::DrawBatch>* writer) {
  if (grpc::Status status = authorize(*context, settings_.token); !status.ok()) return status;
  std::shared_ptr<Job> job;
  if (grpc::Status status = find(request->job_id(), job); !status.ok()) return status;
  // The events one at a time (the log may be long): those that exist now.
  const auto now = std::chrono::steady_clock::now();
  for (uint64_t seq = 0; !context->IsCancelled(); ++seq) {
    const std::optional<v1::RunEvent> found = job->log().wait_for(seq, now);
    if (!found) break;
    const v1::RunEvent& event = *found;
    if (!event.has_draws() || event.draws().chain() != request->chain()) continue;
    const v1::DrawBatch& draws = event.draws();
    if (draws.first_iteration() + draws.step_sizes_size() <= request->from_iteration()) continue;
    if (!writer->Write(draws)) break;
  }
  return grpc::Status::OK;
}

}  // namespace variate::remote
