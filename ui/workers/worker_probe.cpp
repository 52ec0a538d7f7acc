#include "ui/workers/worker_probe.h"

#include "ui/threading/thread_handoff.h"

#ifdef VARIATE_WITH_REMOTE
#include "engine/remote/remote_client.h"
#endif

namespace variate::ui {
namespace {

WorkerStatus query(const WorkerRef& worker) {
  WorkerStatus status;
  status.address = worker.address;
#ifdef VARIATE_WITH_REMOTE
  try {
    const auto ca = worker.caFile.isEmpty() ? std::nullopt : std::optional<std::string>(worker.caFile.toStdString());
    const remote::RemoteClient client(
        remote::WorkerEndpoint::from_files(worker.address.toStdString(), worker.tokenFile.toStdString(), ca));
    const remote::v1::HelloReply hello = client.hello(std::chrono::seconds(3));
    status.cores = hello.cores();
    for (const std::string& device : hello.devices()) status.devices << QString::fromStdString(device);
    status.runningJobs = hello.running_jobs();
    status.maxJobs = hello.max_jobs();
    for (const remote::v1::JobInfo& job : client.jobs()) {
      QString line = QString::fromStdString(job.job_id()).left(8) + " " +
                     QString::fromStdString(remote::state_name(job.state())) + " " +
                     QString::fromStdString(job.model_name());
      if (!job.client_label().empty()) line += " (" + QString::fromStdString(job.client_label()) + ")";
      status.jobs << line;
    }
    status.reachable = true;
  } catch (const std::exception& e) {
    status.error = QString::fromStdString(e.what());
  }
#else
  status.error = "this studio was built without remote workers (gRPC was not found)";
#endif
  return status;
}

}  // namespace

WorkerProbe::WorkerProbe(QObject* parent) : QObject(parent), context_(new QObject) {
  qRegisterMetaType<WorkerStatus>();
  thread_.setObjectName("variate-worker-probe");
  context_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, context_, &QObject::deleteLater);
  thread_.start();
}

WorkerProbe::~WorkerProbe() {
  thread_.quit();
  thread_.wait();
}

void WorkerProbe::probe(const QList<WorkerRef>& workers) {
  ++pending_;
  // Answers are queued to this object, which outlives the thread (the destructor waits).
  postCall(context_, [this, workers] {
    for (const WorkerRef& worker : workers) {
      const WorkerStatus status = query(worker);
      postCall(this, [this, status] { emit probed(status); });
    }
    --pending_;
  });
}

}  // namespace variate::ui
