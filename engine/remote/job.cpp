#include "engine/remote/job.h"

#include <fstream>
#include <stdexcept>

#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/io/data_file.h"
#include "engine/remote/event_codec.h"
#include "engine/services/fit.h"
#include "engine/services/sample.h"
#include "engine/services/setting_table.h"
#include "engine/services/vmod_source.h"

namespace variate::remote {

// What the run's observers see, as events in the job's log. Called on the chains' threads:
// the log serializes them; the run's control holds the chains while the job is paused.
class Job::Events : public services::DrawObserver, public AdviObserver {
 public:
  explicit Events(Job& job) : job_(job) {}

  void on_draws(const DrawBatch& batch, const services::Rows&) override {
    for (v1::DrawBatch& message : encode_draws(batch)) {
      v1::RunEvent event;
      event.mutable_draws()->Swap(&message);
      job_.log_.append(std::move(event));
    }
  }
  void on_adapted(int chain, double step_size, const std::vector<double>& inverse_metric) override {
    v1::RunEvent event;
    v1::Adapted& adapted = *event.mutable_adapted();
    adapted.set_chain(chain);
    adapted.set_step_size(step_size);
    adapted.mutable_inverse_metric()->Add(inverse_metric.begin(), inverse_metric.end());
    job_.log_.append(std::move(event));
  }
  void on_chain_finished(const ChainResult& result) override {
    v1::RunEvent event;
    *event.mutable_chain_finished() = encode_chain_end(result);
    job_.log_.append(std::move(event));
  }

  void on_eta_trial(const EtaTrial& trial) override {
    v1::RunEvent event;
    event.mutable_eta_trial()->set_eta(trial.eta);
    event.mutable_eta_trial()->set_elbo(trial.elbo);
    job_.log_.append(std::move(event));
  }
  void on_eta_chosen(double eta, bool adapted) override {
    v1::RunEvent event;
    event.mutable_eta_chosen()->set_eta(eta);
    event.mutable_eta_chosen()->set_adapted(adapted);
    job_.log_.append(std::move(event));
  }
  void on_iterations(const ElboIterations& batch) override {
    v1::RunEvent event;
    event.mutable_elbo_iterations()->set_first_iteration(batch.first_iteration);
    event.mutable_elbo_iterations()->mutable_elbo()->Add(batch.elbo.begin(), batch.elbo.end());
    job_.log_.append(std::move(event));
  }
  void on_evaluation(const ElboEvaluation& evaluation) override {
    v1::RunEvent event;
    *event.mutable_elbo_evaluation() = encode_evaluation(evaluation);
    job_.log_.append(std::move(event));
  }

 private:
  Job& job_;
};

namespace {

void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << bytes;
  if (!file) throw std::runtime_error("cannot write '" + path.string() + "'");
}

}  // namespace


namespace {

bool is_end(v1::JobState state) {
  return state == v1::FINISHED || state == v1::STOPPED || state == v1::FAILED || state == v1::INTERRUPTED;
}

}  // namespace

Job::Job(std::filesystem::path folder, v1::JobInfo info, std::string data_path)
    : Job(std::move(folder), std::move(info), std::move(data_path), false) {}

Job::Job(std::filesystem::path folder, v1::JobInfo info, std::string data_path, bool loaded)
    : folder_((std::filesystem::create_directories(folder), folder)),
      id_(info.job_id()),
      data_path_(std::move(data_path)),
      log_((folder_ / "events.log").string()),
      info_(std::move(info)) {
  if (loaded) return;
  write_file(folder_ / "model.vmod", info_.model_text());
  info_.set_state(v1::QUEUED);
  save_info();
}

std::shared_ptr<Job> Job::load(const std::filesystem::path& folder) {
  v1::JobInfo info;
  if (!info.ParseFromString(io::read_text_file((folder / "job.pb").string()))) throw std::runtime_error("'" + (folder / "job.pb").string() + "' is damaged");
  info.set_model_text(io::read_text_file((folder / "model.vmod").string()));
  std::shared_ptr<Job> job(new Job(folder, info, "", true));
  if (!is_end(info.state())) job->finish(v1::INTERRUPTED, 1, "the worker stopped while the job ran");
  job->log_.close();
  return job;
}

Job::~Job() {
  cancel("the worker stopped while the job ran");
  if (thread_.joinable()) thread_.join();
}

void Job::save_info() const {
  v1::JobInfo saved = info_;
  saved.clear_model_text();  // in model.vmod
  write_file(folder_ / "job.pb", saved.SerializeAsString());
}

v1::JobInfo Job::info(bool with_model_text) const {
  std::lock_guard<std::mutex> lock(mutex_);
  v1::JobInfo info = info_;
  if (!with_model_text) info.clear_model_text();
  info.set_events(log_.size());
  return info;
}

v1::JobState Job::state() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return info_.state();
}

bool Job::ended() const { return is_end(state()); }

void Job::start(std::function<void()> ended) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    info_.set_state(control_.paused() ? v1::PAUSED : v1::RUNNING);  // one paused while queued starts held
    save_info();
  }
  thread_ = std::thread([this, ended = std::move(ended)] {
    run();
    ended();
  });
}

void Job::cancel(const std::string& reason) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (cancel_reason_.empty()) cancel_reason_ = reason;
  }
  control_.request_stop();
  if (state() == v1::QUEUED) finish(v1::STOPPED, 0, reason);
}

void Job::interrupt() {
  interrupted_ = true;
  cancel("the worker stopped while the job ran");
}

bool Job::wait_until_ended(std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!ended()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

std::string Job::pause() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (is_end(info_.state())) return "the job has ended";
  if (ranks_ > 1) return "a job on several processes cannot pause (its ranks would time out waiting)";
  if (!control_.paused()) {
    control_.set_paused(true);
    // A queued job stays in the queue, held: it starts paused when its turn comes (as
    // PAUSED it would never be started, the scheduler taking only QUEUED jobs).
    if (info_.state() == v1::RUNNING) info_.set_state(v1::PAUSED);
    v1::RunEvent event;
    event.mutable_pause()->set_paused(true);
    log_.append(std::move(event));
  }
  return "";
}

void Job::resume() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!control_.paused()) return;
  control_.set_paused(false);
  if (info_.state() == v1::PAUSED) info_.set_state(v1::RUNNING);
  v1::RunEvent event;
  event.mutable_pause()->set_paused(false);
  log_.append(std::move(event));
}

void Job::finish(v1::JobState state, int exit_code, const std::string& message) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (is_end(info_.state())) return;
    info_.set_state(state);
    info_.set_message(message);
    save_info();
  }
  v1::RunEvent event;
  v1::RunFinished& finished = *event.mutable_finished();
  finished.set_state(state);
  finished.set_exit_code(exit_code);
  finished.set_message(message);
  log_.append(std::move(event));
  log_.close();
}

// The run's spec: the job's model and data files, its options read by the settings'
// descriptions (the ones a worker accepts), and for NUTS a project that keeps its draws.
services::RunSpec Job::spec(const v1::JobInfo& info) const {
  services::RunSpec spec;
  spec.method = info.command() == "sample" ? services::Method::nuts : services::Method::advi;
  spec.model = std::make_shared<services::VmodSource>(info.model_text(), info.model_name(),
                                                      (folder_ / "model.vmod").string());
  if (!data_path_.empty()) {  // a request need not name its data: the job's file names it then
    spec.data = {data_path_, std::nullopt, info.data_name().empty() ? data_path_ : info.data_name()};
  }
  const std::vector<std::string> arguments(info.arguments().begin(), info.arguments().end());
  if (const std::string problem = spec.settings.read_arguments(spec.method, services::kAcceptedByWorker, arguments);
      !problem.empty()) {
    throw ArgumentError(problem);
  }
  for (const v1::ChainStart& start : info.resume()) {
    spec.resume.push_back({std::vector<double>(start.position().begin(), start.position().end()), start.step_size(),
                           std::vector<double>(start.inverse_metric().begin(), start.inverse_metric().end())});
  }
  if (spec.method == services::Method::nuts) spec.record.project = (folder_ / "job.variate").string();
  return spec;
}

// The run the job's spec asks for; its messages become log events.
void Job::run() {
  const v1::JobInfo info = this->info(true);
  std::string last_error;
  const auto log = [this](const std::string& line) {
    v1::RunEvent event;
    event.mutable_log()->set_text(line);
    log_.append(std::move(event));
  };
  Events events(*this);
  services::RunObservers observers;
  observers.note = [log](const std::string& text) { log("note: " + text); };
  observers.info = log;
  observers.draws = &events;
  observers.elbo = &events;
  observers.control = &control_;
  observers.started = [this](const services::RunStarted& started) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ranks_ = started.facts.ranks;
    }
    v1::RunEvent event;
    v1::RunStarted& message = *event.mutable_started();
    message.set_backend(started.facts.backend);
    message.set_ranks(started.facts.ranks);
    message.set_seed(started.facts.seed);
    message.set_device(started.facts.device);
    message.set_backend_note(started.facts.backend_note);
    log_.append(std::move(event));
  };
  int exit_code = 1;
  try {
    const services::RunSpec spec = this->spec(info);
    if (spec.method == services::Method::nuts) {
      services::run_sample(spec, observers);
    } else {
      const services::FitResult fit = services::run_fit(spec, observers);
      v1::RunEvent event;
      *event.mutable_fit_finished() = encode_fit(fit.fit, spec.settings.get(services::setting::family));
      log_.append(std::move(event));
    }
    exit_code = 0;
  } catch (const std::exception& e) {
    last_error = e.what();
    std::istringstream lines(last_error);
    for (std::string line; std::getline(lines, line);) log("error: " + line);
  }
  const v1::JobState state = interrupted_             ? v1::INTERRUPTED
                             : control_.stop_requested() ? v1::STOPPED
                             : exit_code == 0         ? v1::FINISHED
                                                      : v1::FAILED;
  std::string cancelled_by;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cancelled_by = cancel_reason_;
  }
  finish(state, exit_code, state == v1::FAILED ? last_error : state == v1::STOPPED ? cancelled_by : "");
}

}  // namespace variate::remote
