#include "engine/services/draw_fanout.h"

#include <algorithm>
#include <cmath>

#include "engine/mcmc/sampler_columns.h"

namespace variate::services {

DrawFanout::DrawFanout(const DrawColumns& columns, int chains, const PredictiveColumns* predictive, uint64_t seed)
    : columns_(columns), predictive_(predictive), kept_(chains), last_(chains) {
  names_ = sampler_column_names();
  std::vector<std::string> outputs = columns.names(NameStyle::StanCsv);
  if (predictive_) {
    for (auto block : {predictive_->replicated_names(NameStyle::StanCsv), predictive_->log_lik_names(NameStyle::StanCsv)}) {
      outputs.insert(outputs.end(), block.begin(), block.end());
    }
    for (int chain = 0; chain < chains; ++chain) {
      streams_.push_back(PredictiveColumns::chain_stream(seed, static_cast<uint64_t>(chain + 1)));
    }
  }
  names_.insert(names_.end(), outputs.begin(), outputs.end());
}

void DrawFanout::skip_recorded(std::vector<store::ChainRecord> stored, std::vector<int> offsets) {
  stored_ = std::move(stored);
  offsets_ = std::move(offsets);
}

// Only sampling draws take from the chain's generator, so that `variate predict` on the
// written files draws the same values; warmup rows get NaN.
Rows DrawFanout::rows_of(const DrawBatch& batch) const {
  const size_t first_sampling = static_cast<size_t>(
      std::clamp(batch.warmup_iterations - batch.first_iteration, 0, static_cast<int>(batch.positions.size())));
  // Warmup rows nobody reads (no project, no observer that wants them) stay empty.
  const bool warmup_read = recorder_ || (observer_ && observer_->reads_warmup_rows());
  const size_t skipped = warmup_read ? 0 : first_sampling;
  Rows outputs = skipped == 0 ? columns_.rows(batch.positions)
                              : columns_.rows({batch.positions.begin() + static_cast<std::ptrdiff_t>(skipped),
                                               batch.positions.end()});
  outputs.insert(outputs.begin(), skipped, std::vector<double>());
  if (!predictive_) return outputs;
  const Rows sampling(outputs.begin() + static_cast<std::ptrdiff_t>(first_sampling), outputs.end());
  const workflow::PredictiveRows predicted = predictive_->rows(sampling, streams_[batch.chain]);
  const size_t width = names_.size() - sampler_column_names().size();
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (i < first_sampling) {
      outputs[i].resize(width, std::nan(""));
      continue;
    }
    const size_t s = i - first_sampling;
    outputs[i].insert(outputs[i].end(), predicted.replicated[s].begin(), predicted.replicated[s].end());
    outputs[i].insert(outputs[i].end(), predicted.log_lik[s].begin(), predicted.log_lik[s].end());
  }
  return outputs;
}

// The iterations after the stored rows, numbered as the recorder appends them (from 0
// after what it holds).
void DrawFanout::record(const DrawBatch& batch, const Rows& rows) {
  const store::ChainRecord* base = static_cast<size_t>(batch.chain) < stored_.size() ? &stored_[batch.chain] : nullptr;
  if (!base) return recorder_->record(batch, rows);
  const int offset = static_cast<size_t>(batch.chain) < offsets_.size() ? offsets_[batch.chain] : 0;
  const int first = offset + batch.first_iteration;  // the first row's place in the run
  const int skip = std::max(0, static_cast<int>(base->rows) - first);
  if (skip >= static_cast<int>(batch.positions.size())) return;
  DrawBatch rest = batch;
  rest.positions.erase(rest.positions.begin(), rest.positions.begin() + skip);
  rest.stats.erase(rest.stats.begin(), rest.stats.begin() + skip);
  rest.first_iteration = first + skip - static_cast<int>(base->rows);
  recorder_->record(rest, Rows(rows.begin() + skip, rows.end()));
}

// On the chain's own thread: each chain touches only its own rows and generator.
void DrawFanout::on_draws(const DrawBatch& batch) {
  if (batch.positions.empty()) return;
  const Rows rows = rows_of(batch);
  if (recorder_) record(batch, rows);
  auto& kept = kept_[batch.chain];
  for (size_t i = 0; i < rows.size(); ++i) {
    if (batch.first_iteration + static_cast<int>(i) < batch.warmup_iterations) continue;
    std::vector<double> row = sampler_values(batch.stats[i]);
    row.insert(row.end(), rows[i].begin(), rows[i].end());
    kept.push_back(std::move(row));
  }
  {
    std::lock_guard<std::mutex> lock(last_mutex_);
    last_[batch.chain] = batch.positions.back();
  }
  if (observer_) observer_->on_draws(batch, rows);
  if (pause_) pause_->wait_while_paused();
}

void DrawFanout::on_adapted(int chain, double step_size, const std::vector<double>& inverse_metric) {
  if (recorder_) recorder_->on_adapted(chain, step_size, inverse_metric);
  if (observer_) observer_->on_adapted(chain, step_size, inverse_metric);
}

void DrawFanout::on_chain_finished(const ChainResult& result) {
  const store::ChainRecord* base = static_cast<size_t>(result.chain) < stored_.size() ? &stored_[result.chain] : nullptr;
  if (recorder_ && !(base && base->ended)) recorder_->on_chain_finished(result);  // an ended chain's times are stored
  if (observer_) observer_->on_chain_finished(result);
}

std::vector<double> DrawFanout::last_position(int chain) const {
  std::lock_guard<std::mutex> lock(last_mutex_);
  return static_cast<size_t>(chain) < last_.size() ? last_[chain] : std::vector<double>();
}

}  // namespace variate::services
