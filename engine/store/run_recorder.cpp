#include "engine/store/run_recorder.h"

#include <algorithm>

#include "engine/mcmc/sampler_columns.h"

namespace variate::store {
namespace {

std::string sampler_column_list() {
  std::string list;
  for (const auto& name : sampler_column_names()) list += (list.empty() ? "" : ", ") + name;
  return list;
}

}  // namespace

RunRecorder::RunRecorder(const std::string& project_path, const RunSpec& spec, OutputRows rows,
                         RunRecorderOptions options)
    : options_(std::move(options)), rows_(std::move(rows)) {
  if (!starts_with_sampler_columns(spec.columns)) {
    throw ProjectError("project '" + project_path + "': a NUTS run's columns must start with " +
                       sampler_column_list());
  }
  width_ = spec.columns.size();
  project_ = std::make_unique<Project>(project_path, Project::OpenMode::create);
  run_ = project_->create_run(spec);
  last_commit_ = options_.clock();
  if (options_.writer_thread) writer_ = std::thread([this] { writer_loop(); });
}

RunRecorder::RunRecorder(const std::string& project_path, Id run, OutputRows rows, RunRecorderOptions options)
    : options_(std::move(options)), rows_(std::move(rows)) {
  project_ = std::make_unique<Project>(project_path, Project::OpenMode::existing);
  const RunInfo info = project_->run(run);
  if (info.method != RunMethod::nuts || !starts_with_sampler_columns(info.columns)) {
    throw ProjectError("project '" + project_path + "': run " + std::to_string(run) +
                       " is not a NUTS run: it cannot be continued with more draws");
  }
  width_ = info.columns.size();
  base_ = project_->chains(run);
  for (size_t c = 0; c < base_.size(); ++c) {
    if (base_[c].chain != static_cast<int>(c)) {
      throw ProjectError("project '" + project_path + "': run " + std::to_string(run) + " lacks chain " +
                         std::to_string(c + 1) + "'s record");
    }
  }
  project_->resume_run(run);
  run_ = run;
  chain_states_ = base_;
  chain_dirty_.assign(base_.size(), false);
  last_commit_ = options_.clock();
  if (options_.writer_thread) writer_ = std::thread([this] { writer_loop(); });
}

RunRecorder::~RunRecorder() {
  stop_writer();
  std::lock_guard<std::mutex> lock(commit_mutex_);
  if (ended_) return;
  try {
    write_pending();
    project_->finish_run(run_, RunStatus::interrupted, "the recording ended before the run finished");
  } catch (const std::exception&) {
    // Nothing more can be saved; the next open marks the run interrupted.
  }
}

void RunRecorder::on_draws(const DrawBatch& batch) {
  if (batch.positions.empty()) return record(batch, {});
  // The model's outputs are computed here, on the chain's own thread, in parallel.
  record(batch, rows_(batch.positions));
}

void RunRecorder::record(const DrawBatch& batch, const std::vector<std::vector<double>>& outputs) {
  if (failed_.load(std::memory_order_acquire)) {
    throw ProjectError(*failure() + "; the run stopped (the draws committed before are kept)");
  }
  if (batch.positions.empty()) return;
  const size_t n = batch.positions.size();
  if (outputs.size() != n) throw ProjectError("RunRecorder: the output rows do not match the positions");
  DrawBlock block;
  block.chain = batch.chain;
  block.first_iteration = batch.first_iteration;
  block.rows = static_cast<int>(n);
  block.columns = static_cast<int>(width_);
  block.values.reserve(n * width_);
  for (size_t i = 0; i < n; ++i) {
    // A row may carry more than the run records (a run's predictive columns follow its own).
    if (outputs[i].size() + kSamplerColumnCount < width_) {
      throw ProjectError("RunRecorder: a draw has " + std::to_string(outputs[i].size()) +
                         " output values, the run's columns name " +
                         std::to_string(width_ - kSamplerColumnCount));
    }
    const std::vector<double> sampler = sampler_values(batch.stats[i]);
    block.values.insert(block.values.end(), sampler.begin(), sampler.end());
    block.values.insert(block.values.end(), outputs[i].begin(),
                        outputs[i].begin() + static_cast<std::ptrdiff_t>(width_ - kSamplerColumnCount));
  }
  const ChainRecord* base = base_of(batch.chain);
  if (base) block.first_iteration += static_cast<int>(base->rows);  // appended after the stored rows
  {
    std::lock_guard<std::mutex> lock(buffer_mutex_);
    ChainRecord& state = state_of(batch.chain);
    state.warmup_iterations = base ? base->warmup_iterations : batch.warmup_iterations;
    state.last_position = batch.positions.back();
    chain_dirty_[batch.chain] = true;
    // Batches of one chain arrive in order: extend its pending block when contiguous.
    auto previous = std::find_if(pending_.blocks.rbegin(), pending_.blocks.rend(),
                                 [&](const DrawBlock& b) { return b.chain == batch.chain; });
    if (previous != pending_.blocks.rend() &&
        previous->first_iteration + previous->rows == block.first_iteration) {
      previous->values.insert(previous->values.end(), block.values.begin(), block.values.end());
      previous->rows += block.rows;
    } else {
      pending_.blocks.push_back(std::move(block));
    }
  }
  if (!options_.writer_thread) commit_if_due();
}

void RunRecorder::on_adapted(int chain, double step_size, const std::vector<double>& inverse_metric) {
  std::lock_guard<std::mutex> lock(buffer_mutex_);
  ChainRecord& state = state_of(chain);
  state.step_size = step_size;
  state.metric = metric_name(options_.metric);
  state.inverse_metric = inverse_metric;
  chain_dirty_[chain] = true;
}

void RunRecorder::on_chain_finished(const ChainResult& result) {
  const ChainRecord* base = base_of(result.chain);
  std::lock_guard<std::mutex> lock(buffer_mutex_);
  ChainRecord& state = state_of(result.chain);
  state.warmup_iterations = base ? base->warmup_iterations : result.warmup_iterations;
  if (result.step_size > 0) {
    state.step_size = result.step_size;
    state.metric = metric_name(result.metric);
    state.inverse_metric = result.inverse_metric;
  }
  if (!result.positions.empty()) state.last_position = result.positions.back();
  state.seconds_warmup = (base ? base->seconds_warmup : 0) + result.seconds_warmup;
  state.seconds_sampling = (base ? base->seconds_sampling : 0) + result.seconds_sampling;
  state.gradient_evaluations = (base ? base->gradient_evaluations : 0) + result.gradient_evaluations;
  state.ended = true;
  state.stopped_early = result.stopped_early;
  stopped_early_ = stopped_early_ || result.stopped_early;
  chain_dirty_[result.chain] = true;
}

ChainRecord& RunRecorder::state_of(int chain) {
  if (chain_states_.size() <= static_cast<size_t>(chain)) {
    chain_states_.resize(chain + 1);
    chain_dirty_.resize(chain + 1, false);
  }
  chain_states_[chain].chain = chain;
  return chain_states_[chain];
}

const ChainRecord* RunRecorder::base_of(int chain) const {
  return static_cast<size_t>(chain) < base_.size() ? &base_[chain] : nullptr;
}

void RunRecorder::write_pending() {
  RunUpdate update;
  std::vector<int> dirty;
  {
    std::lock_guard<std::mutex> lock(buffer_mutex_);
    update.blocks.swap(pending_.blocks);
    for (size_t c = 0; c < chain_states_.size(); ++c) {
      if (!chain_dirty_[c]) continue;
      update.chains.push_back(chain_states_[c]);
      chain_dirty_[c] = false;
      dirty.push_back(static_cast<int>(c));
    }
  }
  try {
    project_->write(run_, update);
  } catch (...) {
    // Put everything back, ahead of what arrived meanwhile, for the next try.
    std::lock_guard<std::mutex> lock(buffer_mutex_);
    update.blocks.insert(update.blocks.end(), std::make_move_iterator(pending_.blocks.begin()),
                         std::make_move_iterator(pending_.blocks.end()));
    pending_.blocks.swap(update.blocks);
    for (int c : dirty) chain_dirty_[c] = true;
    throw;
  }
  ++commits_;
}

bool RunRecorder::commit_if_due() {
  std::lock_guard<std::mutex> lock(commit_mutex_);
  if (ended_) return false;
  const auto now = options_.clock();
  if (std::chrono::duration<double>(now - last_commit_).count() < options_.commit_interval_seconds) return false;
  if (failure_) return false;
  try {
    write_pending();
    last_commit_ = now;
    last_error_.reset();
    return true;
  } catch (const ProjectError& e) {
    last_error_ = e.what();
    if (!e.busy()) {
      failure_ = e.what();
      failed_.store(true, std::memory_order_release);
    }
    return false;
  } catch (const std::exception& e) {
    last_error_ = e.what();
    return false;
  }
}

void RunRecorder::commit() {
  std::lock_guard<std::mutex> lock(commit_mutex_);
  write_pending();
  last_commit_ = options_.clock();
}

void RunRecorder::finish(const std::string& diagnostics_json) {
  stop_writer();
  std::lock_guard<std::mutex> lock(commit_mutex_);
  write_pending();
  if (!diagnostics_json.empty()) project_->set_diagnostics(run_, diagnostics_json);
  project_->finish_run(run_, stopped_early_ ? RunStatus::stopped : RunStatus::finished);
  ended_ = true;
}

void RunRecorder::fail(const std::string& message) {
  stop_writer();
  std::lock_guard<std::mutex> lock(commit_mutex_);
  if (ended_) return;
  ended_ = true;
  try {
    write_pending();
  } catch (const std::exception&) {
    // The draws that could not be written are lost with the run; record the failure.
  }
  try {
    project_->finish_run(run_, RunStatus::failed, message);
  } catch (const std::exception&) {
    // The next open marks the run interrupted.
  }
}

int RunRecorder::commits() const {
  std::lock_guard<std::mutex> lock(commit_mutex_);
  return commits_;
}

std::optional<std::string> RunRecorder::last_error() const {
  std::lock_guard<std::mutex> lock(commit_mutex_);
  return last_error_;
}

std::optional<std::string> RunRecorder::failure() const {
  std::lock_guard<std::mutex> lock(commit_mutex_);
  return failure_;
}

void RunRecorder::writer_loop() {
  const auto poll = std::chrono::duration<double>(options_.poll_seconds);
  std::unique_lock<std::mutex> lock(writer_mutex_);
  while (!writer_stop_) {
    writer_wake_.wait_for(lock, poll, [this] { return writer_stop_; });
    if (writer_stop_) break;
    lock.unlock();
    commit_if_due();
    lock.lock();
  }
}

void RunRecorder::stop_writer() {
  {
    std::lock_guard<std::mutex> lock(writer_mutex_);
    writer_stop_ = true;
  }
  writer_wake_.notify_all();
  if (writer_.joinable()) writer_.join();
}

}  // namespace variate::store
