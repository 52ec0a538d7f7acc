#include "engine/remote/job.h"

#include <fstream>
#include <stdexcept>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "engine/cli/in_process_run.h"
#include "engine/io/data_file.h"

#include "engine/remote/event_codec.h"
#include "engine/remote/line_stream.h"

namespace variate::remote {

// What the run's observers see, as events in the job's log. Called on the chains' threads:
// the log serializes them; the pause holds the chain here.
class Job::Events : public SampleObserver, public AdviObserver {
 public:
  explicit Events(Job& job) : job_(job) {}

  void on_draws(const DrawBatch& batch) override {
    for (v1::DrawBatch& message : encode_draws(batch)) {
      v1::RunEvent event;
      event.mutable_draws()->Swap(&message);
      job_.log_.append(std::move(event));
    }
    job_.wait_while_paused();
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
    job_.wait_while_paused();
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

std::string chain_starts_json(const google::protobuf::RepeatedPtrField<v1::ChainStart>& starts) {
  nlohmann::json chains = nlohmann::json::array();
  for (const v1::ChainStart& start : starts) {
    chains.push_back({{"position", std::vector<double>(start.position().begin(), start.position().end())},
                      {"step_size", start.step_size()},
                      {"inverse_metric", std::vector<double>(start.inverse_metric().begin(), start.inverse_metric().end())}});
  }
  return chains.dump();
}

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
  cancel();
  if (thread_.joinable()) thread_.join();
}

void Job::save_info() const {
  v1::JobInfo saved = info_;
  saved.clear_model_text();  // in model.vmod
  write_file(folder_ / "job.pb", saved.SerializeAsString());
}

void Job::set_state(v1::JobState state) {
  std::lock_guard<std::mutex> lock(mutex_);
  info_.set_state(state);
  save_info();
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
  set_state(v1::RUNNING);
  thread_ = std::thread([this, ended = std::move(ended)] {
    run();
    ended();
  });
}

void Job::cancel() {
  stop_ = true;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    paused_ = false;
  }
  resumed_.notify_all();
  if (state() == v1::QUEUED) finish(v1::STOPPED, 0, "");
}

void Job::interrupt() {
  interrupted_ = true;
  cancel();
}

std::string Job::pause() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (is_end(info_.state())) return "the job has ended";
  if (ranks_ > 1) return "a job on several processes cannot pause (its ranks would time out waiting)";
  if (!paused_) {
    paused_ = true;
    info_.set_state(v1::PAUSED);
    v1::RunEvent event;
    event.mutable_pause()->set_paused(true);
    log_.append(std::move(event));
  }
  return "";
}

void Job::resume() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!paused_) return;
    paused_ = false;
    info_.set_state(v1::RUNNING);
    v1::RunEvent event;
    event.mutable_pause()->set_paused(false);
    log_.append(std::move(event));
  }
  resumed_.notify_all();
}

void Job::wait_while_paused() {
  std::unique_lock<std::mutex> lock(mutex_);
  resumed_.wait(lock, [this] { return !paused_ || stop_; });
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

// The run, as `variate sample|fit` would make it with the job's files; its messages become
// log events.
void Job::run() {
  v1::JobInfo info = this->info(true);
  std::vector<std::string> arguments = {"variate", info.command(), (folder_ / "model.vmod").string(),
                                        "--model-name", info.model_name()};
  if (!data_path_.empty()) arguments.insert(arguments.end(), {"--data", data_path_, "--data-name", info.data_name()});
  arguments.insert(arguments.end(), info.arguments().begin(), info.arguments().end());
  // The client writes the outputs from the events; the job keeps its draws in the project
  // file (NUTS) and the event log, and its cores for the chains.
  arguments.push_back("--quiet");
  if (info.command() == "sample") arguments.insert(arguments.end(), {"--project", (folder_ / "job.variate").string()});
  if (info.resume_size() > 0) {
    const std::filesystem::path starts = folder_ / "resume.json";
    write_file(starts, chain_starts_json(info.resume()));
    arguments.insert(arguments.end(), {"--resume-from", starts.string()});
  }

  std::string last_error;
  LineStream errors([this, &last_error](const std::string& line) {
    if (line.rfind("error: ", 0) == 0) last_error = line.substr(7);
    v1::RunEvent event;
    event.mutable_log()->set_text(line);
    log_.append(std::move(event));
  });
  Events events(*this);
  cli::RunHooks hooks;
  hooks.out = &errors;  // nothing: the job writes no summary
  hooks.writes_outputs = false;
  hooks.err = &errors;
  hooks.sample_observer = &events;
  hooks.advi_observer = &events;
  hooks.stop = &stop_;
  hooks.rank_arguments = arguments;
  hooks.started = [this](const cli::RunFacts& facts) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ranks_ = facts.ranks;
    }
    v1::RunEvent event;
    v1::RunStarted& started = *event.mutable_started();
    started.set_backend(facts.backend);
    started.set_ranks(facts.ranks);
    started.set_seed(facts.seed);
    started.set_device(facts.device);
    log_.append(std::move(event));
  };
  const std::string method = [&] {
    for (int i = 0; i + 1 < info.arguments_size(); ++i) {
      if (info.arguments(i) == "--method") return info.arguments(i + 1);
    }
    return std::string("meanfield");
  }();
  hooks.fitted = [this, method](const AdviFit& fit) {
    v1::RunEvent event;
    *event.mutable_fit_finished() = encode_fit(fit, method);
    log_.append(std::move(event));
  };

  int exit_code = 1;
  try {
    exit_code = cli::run_in_process(arguments, nullptr, hooks);
  } catch (const CLI::ParseError& e) {
    errors << "error: " << e.what() << "\n";
  } catch (const std::exception& e) {
    errors << "error: " << e.what() << "\n";
  }
  errors.flush();
  const v1::JobState state = interrupted_ ? v1::INTERRUPTED
                             : stop_      ? v1::STOPPED
                             : exit_code == 0 ? v1::FINISHED
                                              : v1::FAILED;
  finish(state, exit_code, state == v1::FAILED ? last_error : "");
}

}  // namespace variate::remote
