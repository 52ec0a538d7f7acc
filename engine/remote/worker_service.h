#pragma once
/// The worker's side of the protocol: every call checks the token first, then the request
/// (request_checks.h); data sets are kept by content hash, jobs in their folders, at most
/// max_jobs running at once (the rest wait in order of submission).

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "engine/remote/job.h"
#include "engine/remote/jobs_dir_lock.h"
#include "variate_worker.grpc.pb.h"

namespace variate::remote {

struct WorkerSettings {
  std::string token;
  std::filesystem::path jobs_dir;
  int max_jobs = 1;
  int max_ranks = 1;
  int64_t max_data_bytes = 0;
  double heartbeat_seconds = 5;
};

class WorkerService final : public v1::Worker::Service {
 public:
  /// Loads the jobs a previous worker left in settings.jobs_dir.
  explicit WorkerService(WorkerSettings settings);
  /// Interrupts the running jobs and waits for them.
  ~WorkerService() override;

  /// Interrupts every job that has not ended (the worker is stopping).
  void interrupt_all();

  grpc::Status Hello(grpc::ServerContext* context, const v1::HelloRequest* request, v1::HelloReply* reply) override;
  grpc::Status HasData(grpc::ServerContext* context, const v1::DataRef* request, v1::HasDataReply* reply) override;
  grpc::Status UploadData(grpc::ServerContext* context, grpc::ServerReader<v1::DataChunk>* reader,
                          v1::DataRef* reply) override;
  grpc::Status DownloadData(grpc::ServerContext* context, const v1::DataRef* request,
                            grpc::ServerWriter<v1::DataChunk>* writer) override;
  grpc::Status Submit(grpc::ServerContext* context, const v1::SubmitRequest* request, v1::SubmitReply* reply) override;
  grpc::Status Attach(grpc::ServerContext* context, const v1::AttachRequest* request,
                      grpc::ServerWriter<v1::RunEvent>* writer) override;
  grpc::Status Cancel(grpc::ServerContext* context, const v1::JobRequest* request, v1::JobReply* reply) override;
  grpc::Status Pause(grpc::ServerContext* context, const v1::JobRequest* request, v1::JobReply* reply) override;
  grpc::Status Resume(grpc::ServerContext* context, const v1::JobRequest* request, v1::JobReply* reply) override;
  grpc::Status GetJob(grpc::ServerContext* context, const v1::JobRequest* request, v1::JobInfo* reply) override;
  grpc::Status ListJobs(grpc::ServerContext* context, const v1::ListJobsRequest* request,
                        v1::ListJobsReply* reply) override;
  grpc::Status FetchDraws(grpc::ServerContext* context, const v1::FetchDrawsRequest* request,
                          grpc::ServerWriter<v1::DrawBatch>* writer) override;

 private:
  std::filesystem::path data_path(const v1::DataRef& ref) const;
  /// The job named by `id`, or the status to answer with.
  grpc::Status find(const std::string& id, std::shared_ptr<Job>& job) const;
  /// Starts queued jobs while fewer than max_jobs run.
  void schedule();
  int running_jobs() const;

  WorkerSettings settings_;
  JobsDirLock lock_;  // taken before the jobs are read
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Job>> jobs_;
  std::vector<std::string> order_;  // job ids in order of submission
  bool stopping_ = false;
};

}  // namespace variate::remote
