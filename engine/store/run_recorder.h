#pragma once
/// Records a NUTS run into a project while it samples: an observer of sample_nuts() that
/// buffers draw batches from the chain threads and commits them, with each chain's
/// warmup length, adaptation and last position, at least every `commit_interval` — on a
/// background writer thread, so chain threads never wait for the disk and the run's
/// heartbeat stays fresh even while no draws arrive. finish() commits the rest.
///
///   store::RunRecorder recorder("p.variate", spec, rows_of_positions);
///   sample_nuts(target, options, &recorder, &stop);
///   recorder.finish(diagnostics_json);   // status finished, or stopped after a stop
///
/// The recorder uses its own connection to the file, so a Project open elsewhere (the
/// studio's) reads the draws as they are committed.
///
/// A commit that fails because another writer held the file too long is tried again with
/// the next one. Any other failure (a full disk, a file that cannot grow, a damaged file)
/// would repeat: the recorder stops committing and every later on_draws() throws it, so
/// each chain ends at its next batch and sample_nuts() throws the failure; the draws
/// committed before it stay in the file.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/mcmc/sample.h"
#include "engine/store/project.h"

namespace variate::store {

/// The output values of a draw (constrained parameters, then derived quantities) for each
/// unconstrained position, e.g. DrawColumns::rows. Called on the chain threads,
/// concurrently, from on_draws().
using OutputRows =
    std::function<std::vector<std::vector<double>>(const std::vector<std::vector<double>>&)>;

struct RunRecorderOptions {
  using Clock = std::chrono::steady_clock;
  /// Buffered draws are committed once the last commit is this old. With the writer
  /// thread's polling and the sampler's own ~100 ms batching, a draw is on disk within
  /// about 0.4 s of being made (a kill loses at most that much).
  double commit_interval_seconds = 0.25;
  /// How often the writer thread checks whether a commit is due.
  double poll_seconds = 0.05;
  /// Without the writer thread commits happen only from on_draws(), commit_if_due() and
  /// finish() (for tests that drive time themselves).
  bool writer_thread = true;
  /// The metric the sampler adapts (NutsOptions::metric), naming the stored inverse metric.
  MetricKind metric = MetricKind::diagonal;
  /// The time commits are scheduled by; tests inject a manual clock.
  std::function<Clock::time_point()> clock = [] { return Clock::now(); };
};

class RunRecorder : public SampleObserver {
 public:
  /// Opens `project_path` (creating it if absent) and adds a run for `spec` (status
  /// running). spec.columns must be sampler_column_names() followed by one name per
  /// value `rows` returns.
  /// @throws ProjectError if the project cannot be opened or the run not created.
  RunRecorder(const std::string& project_path, const RunSpec& spec, OutputRows rows,
              RunRecorderOptions options = {});
  /// A recorder handed its rows by record() alone.
  RunRecorder(const std::string& project_path, const RunSpec& spec, RunRecorderOptions options = {})
      : RunRecorder(project_path, spec, OutputRows(), std::move(options)) {}
  /// Continues `run`, an ended NUTS run of the project, with more draws ("run more
  /// draws": sample with NutsOptions::resume_from built from Project::chains(run)). Each
  /// chain's draws are appended after its stored rows; its warmup length stays, its
  /// times and gradient evaluations add up; the run is running again until finish().
  /// @throws ProjectError if the project cannot be opened, the run does not exist, is
  /// running or is not a NUTS run.
  RunRecorder(const std::string& project_path, Id run, OutputRows rows, RunRecorderOptions options = {});
  /// Continues `run`, handed its rows by record() alone.
  RunRecorder(const std::string& project_path, Id run, RunRecorderOptions options = {})
      : RunRecorder(project_path, run, OutputRows(), std::move(options)) {}
  /// Stops the writer and commits what is buffered. A run neither finished nor failed is
  /// marked interrupted. Never throws.
  ~RunRecorder() override;
  RunRecorder(const RunRecorder&) = delete;
  RunRecorder& operator=(const RunRecorder&) = delete;

  Id run_id() const { return run_; }

  // SampleObserver: called on the chain threads; they only copy into the buffer (and
  // commit when the writer thread is off and a commit is due).
  void on_draws(const DrawBatch& batch) override;
  /// on_draws with the batch's output rows computed already (a row may carry more values
  /// than the run records: those after its own are left out).
  void record(const DrawBatch& batch, const std::vector<std::vector<double>>& rows);
  void on_adapted(int chain, double step_size, const std::vector<double>& inverse_metric) override;
  void on_chain_finished(const ChainResult& result) override;

  /// Commits the buffer if the last commit is at least commit_interval old by the
  /// clock; returns whether it committed. A failed commit keeps the buffer for the next
  /// try (when busy) and is reported by last_error().
  bool commit_if_due();
  /// Commits the buffer now. @throws ProjectError if the write fails.
  void commit();
  /// Commits the rest, stores `diagnostics_json` (unless empty) and ends the run:
  /// stopped when a chain reported it stopped early, finished otherwise.
  /// @throws ProjectError if the final commit fails (the run is then left interrupted).
  void finish(const std::string& diagnostics_json = "");
  /// Commits the rest and ends the run as failed with `message`. Never throws.
  void fail(const std::string& message);

  /// Commits so far (each one transaction), including heartbeat-only ones.
  int commits() const;
  /// The message of the last failed background commit, or nothing.
  std::optional<std::string> last_error() const;
  /// The failure that stopped the recording (not a busy file), or nothing.
  std::optional<std::string> failure() const;

 private:
  void write_pending();  // commit_mutex_ held
  ChainRecord& state_of(int chain);  // buffer_mutex_ held
  const ChainRecord* base_of(int chain) const;
  void writer_loop();
  void stop_writer();

  RunRecorderOptions options_;
  OutputRows rows_;
  size_t width_ = 0;
  std::unique_ptr<Project> project_;
  Id run_ = 0;

  std::vector<ChainRecord> base_;  // a continued run's chains as stored; fixed after construction
  mutable std::mutex buffer_mutex_;  // guards the pending update and chain states
  RunUpdate pending_;
  std::vector<ChainRecord> chain_states_;
  std::vector<bool> chain_dirty_;
  bool stopped_early_ = false;

  mutable std::mutex commit_mutex_;  // serializes commits (and guards project_)
  RunRecorderOptions::Clock::time_point last_commit_;
  int commits_ = 0;
  std::optional<std::string> last_error_;
  bool ended_ = false;
  std::atomic<bool> failed_{false};  // read by the chain threads without a lock
  std::optional<std::string> failure_;  // commit_mutex_ held; set once, before failed_

  std::mutex writer_mutex_;
  std::condition_variable writer_wake_;
  bool writer_stop_ = false;
  std::thread writer_;
};

}  // namespace variate::store
