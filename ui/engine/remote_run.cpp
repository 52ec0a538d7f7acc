// A NUTS run made as a job of a worker (`variate worker`, engine/remote): the model compiles
// here for its output columns only (the worker evaluates the density), and the job's
// events are replayed into the recorder and live observer a local run feeds, as
// `variate sample --worker` replays them into its outputs (engine/remote/worker_inference.cpp).
// Pause, stop and detach become calls to the worker, made on this thread: the UI thread
// never waits on the network. Reattaching replays the job from its first event and hands
// the recorder, per chain, only the iterations the project lacks, so each draw is stored
// once. A continued run ("run more draws") records its new job and, per chain, the rows
// it had before (the job's iterations follow them), so it reattaches as well.

#ifdef VARIATE_WITH_REMOTE  // built with engine/remote (gRPC)

#include <unistd.h>

#include <atomic>
#include <algorithm>
#include <exception>
#include <map>
#include <memory>
#include <thread>

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryFile>

#include "engine/core/argument_error.h"
#include "engine/mcmc/sampler_columns.h"
#include "engine/store/run_recorder.h"

#include "engine/remote/event_codec.h"
#include "engine/remote/remote_client.h"
#include "ui/document/run_records.h"
#include "ui/engine/compiled_request.h"
#include "ui/engine/live_observer.h"
#include "ui/engine/run_context.h"
#include "ui/engine/sample_arguments.h"

namespace variate::ui {
namespace {

namespace v1 = variate::remote::v1;
using remote::RemoteClient;
using remote::RemoteError;

std::unique_ptr<RemoteClient> clientFor(const WorkerRef& worker) {
  const auto ca = worker.caFile.isEmpty() ? std::nullopt : std::optional<std::string>(worker.caFile.toStdString());
  return std::make_unique<RemoteClient>(
      remote::WorkerEndpoint::from_files(worker.address.toStdString(), worker.tokenFile.toStdString(), ca));
}

// The job's options: the run panel's settings as `variate sample` takes them; more draws
// start from the chains' adapted states and skip warmup.
v1::SubmitRequest submission(const RunRequest& request, const RemoteClient& client) {
  v1::SubmitRequest submit;
  submit.set_command("sample");
  submit.set_model_text(request.modelText.toStdString());
  submit.set_model_name(request.modelName.toStdString());
  if (!request.dataJson.isEmpty()) {  // put_data uploads a file
    QTemporaryFile file(QDir::temp().filePath("variate-studio-XXXXXX.json"));
    if (!file.open() || file.write(request.dataJson.toUtf8()) < 0 || !file.flush()) {
      throw ArgumentError("cannot write the data set for the worker: " + file.errorString().toStdString());
    }
    *submit.mutable_data() = client.put_data(file.fileName().toStdString());
    submit.set_data_name(request.dataSetName.toStdString());
  }
  RunConfig config = request.config;
  if (!request.resume.empty()) config.warmup = 0;
  QStringList arguments = sampleOptionArguments(config, config.threads > 0 ? config.threads : config.chains);
  if (config.batchedChains) arguments << "--batched-chains";
  if (config.processes > 1) arguments << "--nproc" << QString::number(config.processes);
  for (const QString& argument : arguments) submit.add_arguments(argument.toStdString());
  for (const ChainResume& chain : request.resume) {
    v1::ChainStart* start = submit.add_resume();
    *start->mutable_position() = {chain.position.begin(), chain.position.end()};
    start->set_step_size(chain.stepSize);
    *start->mutable_inverse_metric() = {chain.inverseMetric.begin(), chain.inverseMetric.end()};
  }
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  submit.set_client_label(std::string("studio ") + (getenv("USER") ? getenv("USER") : "someone") + "@" + host);
  return submit;
}

using Rows = std::vector<std::vector<double>>;

// Hands each event to the observers, on the one thread that reads the stream: a batch's
// output rows are computed once, for the live view and for the recorder (whose OutputRows
// is rowsFor(), handing over those rows). `stored` holds each chain's rows already in the
// project (a reattached run): the recorder gets only the iterations after them, shifted
// back by as many (it appends after its stored rows); the live view gets them all.
class EventReplay {
 public:
  EventReplay(const DrawColumns& columns, LiveObserver& live, std::vector<store::ChainRecord> stored,
              std::vector<int> offsets, RunContext& context)
      : columns_(columns), live_(live), stored_(std::move(stored)), offsets_(std::move(offsets)), context_(context) {}

  void setRecorder(SampleObserver* recorder) { recorder_ = recorder; }
  /// The recorder's OutputRows: the rows of the batch being handed to it.
  Rows rowsFor(const Rows& positions) {
    if (positions.size() != next_.size()) throw std::logic_error("EventReplay: rows asked out of turn");
    return std::move(next_);
  }

  void apply(const v1::RunEvent& event) {
    if (event.has_draws()) {
      const DrawBatch batch = remote::decode_draws(event.draws());
      if (!batch.positions.empty()) lastPositions_[batch.chain] = batch.positions.back();
      Rows rows = columns_.rows(batch.positions);
      live_.post(batch, rows);
      const store::ChainRecord* base = storedChain(batch.chain);
      const int first = offset(batch.chain) + batch.first_iteration;  // the first row's place in the run
      const int skip = std::max(0, base ? static_cast<int>(base->rows) - first : 0);
      if (skip < static_cast<int>(batch.positions.size())) {
        rows.erase(rows.begin(), rows.begin() + skip);
        next_ = std::move(rows);
        recorder_->on_draws(shifted(batch, skip, base, first));
      }
    } else if (event.has_adapted()) {
      const v1::Adapted& a = event.adapted();
      const std::vector<double> metric(a.inverse_metric().begin(), a.inverse_metric().end());
      recorder_->on_adapted(a.chain(), a.step_size(), metric);
      live_.on_adapted(a.chain(), a.step_size(), metric);
    } else if (event.has_chain_finished()) {
      ChainResult end = remote::decode_chain_end(event.chain_finished());
      // The message leaves positions out; "run more draws" starts from the last one.
      if (const auto last = lastPositions_.find(end.chain); last != lastPositions_.end()) {
        end.positions.push_back(last->second);
      }
      const store::ChainRecord* base = storedChain(end.chain);
      if (!base || !base->ended) recorder_->on_chain_finished(end);  // an ended chain's times are stored
      live_.on_chain_finished(end);
    } else if (event.has_started()) {
      const v1::RunStarted& s = event.started();
      context_.log(QString("the worker runs it on %1 (%2), seed %3")
                       .arg(QString::fromStdString(s.device()), QString::fromStdString(s.backend()))
                       .arg(s.seed()));
    } else if (event.has_log()) {
      context_.log(QString::fromStdString(event.log().text()));
    } else if (event.has_finished()) {
      finished_ = event.finished();
    }
  }

  const v1::RunFinished& finished() const { return finished_; }

 private:
  const store::ChainRecord* storedChain(int chain) const {
    return static_cast<size_t>(chain) < stored_.size() ? &stored_[chain] : nullptr;
  }
  int offset(int chain) const { return static_cast<size_t>(chain) < offsets_.size() ? offsets_[chain] : 0; }

  // The iterations after the stored rows, numbered as the recorder appends them (from 0
  // after what it holds). `first` is the batch's first row's place in the run.
  static DrawBatch shifted(const DrawBatch& batch, int skip, const store::ChainRecord* base, int first) {
    if (!base) return batch;
    DrawBatch rest = batch;
    rest.positions.erase(rest.positions.begin(), rest.positions.begin() + skip);
    rest.stats.erase(rest.stats.begin(), rest.stats.begin() + skip);
    rest.first_iteration = first + skip - static_cast<int>(base->rows);
    return rest;
  }

  const DrawColumns& columns_;
  SampleObserver* recorder_ = nullptr;
  LiveObserver& live_;
  Rows next_;
  std::map<int, std::vector<double>> lastPositions_;
  std::vector<store::ChainRecord> stored_;
  std::vector<int> offsets_;  // a continued run's rows per chain before the job
  RunContext& context_;
  v1::RunFinished finished_;
};

// A continued run's record names its new job (and the rows it continues), replacing the
// job it was made by, so that reopening the project reattaches to the one that runs.
void recordJob(const QString& projectPath, qint64 run, const WorkerRef& worker) {
  store::Project project(projectPath.toStdString());
  QJsonObject config = QJsonDocument::fromJson(QByteArray::fromStdString(project.run(run).config_json)).object();
  RunConfig withWorker;
  withWorker.worker = worker;
  config["worker"] = withWorker.toJson()["worker"];
  project.set_run_config(run, QJsonDocument(config).toJson(QJsonDocument::Compact).toStdString());
}

// A continued run reattached to: its live view starts with the rows the run had before the
// job (from the project); the job's own rows follow them.
void postRowsBefore(const QString& projectPath, qint64 run, const std::vector<int>& offsets, LiveMailbox& mailbox) {
  const store::Project project(projectPath.toStdString());
  const LoadedDraws draws = readDraws(project, project.run(run));
  for (size_t chain = 0; chain < draws.chains.size() && chain < offsets.size(); ++chain) {
    for (const DrawBlockPtr& stored : draws.chains[chain].blocks()) {
      const int keep = std::min(stored->rows(), offsets[chain] - stored->firstIteration);
      if (keep <= 0) continue;
      auto block = std::make_shared<DrawBlock>(*stored);
      block->stats.resize(static_cast<size_t>(keep));
      block->values.resize(static_cast<size_t>(keep) * static_cast<size_t>(block->columns));
      mailbox.post(std::move(block));
    }
  }
}

QString linkName(remote::LinkState state) {
  switch (state) {
    case remote::LinkState::connected: return "connected";
    case remote::LinkState::reconnecting: return "reconnecting";
    case remote::LinkState::gone: return "worker gone";
  }
  return {};
}

// Follows `job` to its end (true) or until a detach (false). The stream is read on a
// thread of its own while this one turns the UI's pause, stop and detach into calls;
// `paused`: the job is held on the worker as following starts.
// @throws RemoteError when the worker is gone; what the replay throws.
bool follow(const RemoteClient& client, const std::string& job, EventReplay& replay, RunContext& context,
            bool paused) {
  std::atomic<bool> detach{false}, done{false};
  std::exception_ptr failure;
  bool ended = false;
  remote::FollowOptions options;
  options.detach = &detach;
  options.link = [&context](remote::LinkState state) { context.link(linkName(state)); };
  std::thread reader([&] {
    try {
      ended = client.follow(job, 0, [&replay](const v1::RunEvent& event) { replay.apply(event); }, options);
    } catch (...) {
      failure = std::current_exception();
    }
    done = true;
  });
  context.link("connected");
  bool cancelled = false;
  while (!done) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    try {
      // A detach is asked before the stop that comes with it: read the stop first, so a
      // stop seen here that belongs to a detach sees the detach too.
      const bool stop = context.control.stopRequested();
      if (context.control.detachRequested()) {
        detach = true;
      } else if (stop && !cancelled) {
        cancelled = true;
        client.cancel(job);
      } else if (!stop && context.control.paused() != paused) {
        paused = !paused;
        if (paused) client.pause(job); else client.resume(job);
      }
    } catch (const RemoteError& e) {
      context.log(QString("the worker did not take it: %1").arg(e.what()));
    }
  }
  reader.join();
  if (failure) std::rethrow_exception(failure);
  return ended;
}

}  // namespace

RunOutcome runRemoteNuts(const RunRequest& request, RunContext& context) {
  RunOutcome outcome;
  std::unique_ptr<store::RunRecorder> recorder;
  RunRequest recorded = request;  // with the job, which the run's record keeps for a reattach
  try {
    if (request.config.untilEss > 0 && !request.reattach && request.continues < 0) {
      throw ArgumentError("auto-stop extends the chains in the studio's own process: set Until ESS to off to run on a "
                          "worker");
    }
    CompiledRequest compiled = compileModel(request);
    const std::unique_ptr<RemoteClient> client = clientFor(request.config.worker);
    client->hello();
    std::string job = request.config.worker.job.toStdString();
    if (!request.reattach) {
      job = client->submit(submission(request, *client));
      recorded.config.worker.job = QString::fromStdString(job);
      recorded.config.worker.offsets.clear();
      for (const auto& resume : request.resume) recorded.config.worker.offsets.push_back(resume.iterations);
      context.log(QString("job %1 on %2").arg(QString::fromStdString(job), request.config.worker.address));
      if (request.continues >= 0) recordJob(request.projectPath, request.continues, recorded.config.worker);
    }

    std::vector<std::string> columns = sampler_column_names();
    columns.insert(columns.end(), compiled.stanNames.begin(), compiled.stanNames.end());
    const DrawColumns& output = *compiled.columns;
    RunControl neverPaused;  // the worker holds a paused job, not this observer
    std::vector<int> offsets, warmups;
    for (const auto& resume : request.resume) {  // more draws: the live view appends them
      offsets.push_back(resume.iterations);
      warmups.push_back(resume.warmup);
    }
    std::vector<store::ChainRecord> stored;
    if (request.reattach) {
      stored = store::Project(request.projectPath.toStdString()).chains(request.continues);
      offsets = request.config.worker.offsets;  // a continued run's job follows the rows it had
      if (!offsets.empty()) {
        for (const auto& chain : stored) warmups.push_back(chain.warmup_iterations);
      }
    }
    LiveObserver live(output, neverPaused, context.mailbox, offsets, warmups);
    EventReplay replay(output, live, std::move(stored), recorded.config.worker.offsets, context);
    const auto rows = [&replay](const Rows& positions) { return replay.rowsFor(positions); };
    store::RunRecorderOptions recording;
    recording.metric = request.config.metric;
    if (request.continues >= 0) {
      recorder = std::make_unique<store::RunRecorder>(request.projectPath.toStdString(), request.continues, rows,
                                                      recording);
    } else {
      recorder = std::make_unique<store::RunRecorder>(request.projectPath.toStdString(),
                                                      runSpec(recorded, compiled, std::move(columns)), rows, recording);
    }
    outcome.runId = recorder->run_id();
    context.started(RunStart{outcome.runId, compiled.bracketedNames, compiled.parameterColumns});
    if (request.reattach && !request.config.worker.offsets.empty()) {
      postRowsBefore(request.projectPath, request.continues, request.config.worker.offsets, context.mailbox);
    }

    replay.setRecorder(recorder.get());
    // A job reattached to may be held on the worker: the run shows paused, to resume.
    const bool paused = request.reattach && client->job(job).state() == v1::PAUSED;
    if (paused) {
      context.control.setPaused(true);
      context.foundPaused();
    }
    bool ended = false;
    try {
      ended = follow(*client, job, replay, context, paused);
    } catch (const RemoteError& e) {  // the job may go on: the run stays interrupted, to reattach
      context.link("worker gone");
      recorder.reset();
      outcome.status = RunStatus::Interrupted;
      outcome.message = QString::fromStdString(e.what());
      return outcome;
    }
    if (!ended) {
      recorder.reset();  // recorded interrupted: reopening the project reattaches
      outcome.status = RunStatus::Interrupted;
      outcome.message = QString("detached; job %1 goes on on %2")
                            .arg(QString::fromStdString(job), request.config.worker.address);
      return outcome;
    }
    const v1::RunFinished& finished = replay.finished();
    if (finished.state() == v1::FINISHED || finished.state() == v1::STOPPED) {
      recorder->finish();
      outcome.status = finished.state() == v1::STOPPED || context.control.stopRequested() ? RunStatus::Stopped
                                                                                            : RunStatus::Finished;
      recorder.reset();  // closes its connection before the summary reads the file
    } else {
      const std::string why = finished.message().empty() ? remote::state_name(finished.state()) : finished.message();
      throw std::runtime_error("job " + job + " on " + request.config.worker.address.toStdString() + ": " + why);
    }
  } catch (const std::exception& e) {
    outcome.status = RunStatus::Failed;
    outcome.message = QString::fromStdString(e.what());
    if (recorder) recorder->fail(e.what());
  }
  if (outcome.status != RunStatus::Failed) storeSummary(request, outcome.runId, context);
  return outcome;
}

}  // namespace variate::ui

#endif  // VARIATE_WITH_REMOTE
