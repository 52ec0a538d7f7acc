#include "engine/cli/chain_output.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>

#include "engine/mcmc/sampler_columns.h"

namespace variate::cli {

ChainOutput::ChainOutput(const DrawColumns& columns, int chains, ChainOutputOptions options)
    : columns_(columns), options_(std::move(options)),
      total_iterations_(static_cast<int>(options_.info.num_warmup + options_.info.num_samples)),
      writers_(chains), draws_(chains) {
  names_ = sampler_column_names();
  std::vector<std::string> names = columns.names(NameStyle::StanCsv);
  if (const auto* predictive = options_.predictive) {
    for (auto block : {predictive->replicated_names(NameStyle::StanCsv), predictive->log_lik_names(NameStyle::StanCsv)}) {
      names.insert(names.end(), block.begin(), block.end());
    }
    for (int chain = 0; chain < chains; ++chain) {
      generators_.push_back(workflow::chain_generator(options_.info.run.seed, static_cast<uint64_t>(chain + 1)));
    }
  }
  names_.insert(names_.end(), names.begin(), names.end());
  if (!options_.directory) return;
  std::filesystem::create_directories(*options_.directory);
  for (int chain = 0; chain < chains; ++chain) {
    io::SampleCsvInfo info = options_.info;
    info.run.chain_id = chain + 1;
    const std::string path =
        (std::filesystem::path(*options_.directory) / ("chain_" + std::to_string(chain + 1) + ".csv")).string();
    writers_[chain] = std::make_unique<io::StanCsvWriter>(path, info, names);
  }
}

// Runs on the chain's own thread: each chain touches only its own writer and rows.
void ChainOutput::on_draws(const DrawBatch& batch) {
  auto outputs = columns_.rows(batch.positions);
  if (options_.predictive) append_predictive(batch, outputs);
  for (size_t i = 0; i < outputs.size(); ++i) {
    const bool warmup = batch.first_iteration + static_cast<int>(i) < batch.warmup_iterations;
    std::vector<double> row = sampler_values(batch.stats[i]);
    row.insert(row.end(), outputs[i].begin(), outputs[i].end());
    if (!warmup) draws_[batch.chain].push_back(row);
    if (writers_[batch.chain] && (!warmup || options_.info.save_warmup)) {
      writers_[batch.chain]->write_draw(row);
    }
  }
  if (!options_.progress) return;
  // Report each 10% passed in this batch.
  const int last = batch.first_iteration + static_cast<int>(batch.positions.size());
  const int step = std::max(1, total_iterations_ / 10);
  if (last / step == batch.first_iteration / step && last != total_iterations_) return;
  std::lock_guard<std::mutex> lock(progress_mutex_);
  *options_.progress_stream << "Chain " << batch.chain + 1 << " Iteration: " << last << " / " << total_iterations_
            << " [" << (100 * last / std::max(1, total_iterations_)) << "%]  ("
            << (last <= batch.warmup_iterations ? "Warmup" : "Sampling") << ")\n";
}

// Only sampling draws take from the chain's generator, so that `variate predict` on the
// written files draws the same values; warmup rows get NaN (sample rejects --save-warmup
// with --predict, so none is written).
void ChainOutput::append_predictive(const DrawBatch& batch, std::vector<std::vector<double>>& outputs) {
  const size_t first_sampling =
      static_cast<size_t>(std::clamp(batch.warmup_iterations - batch.first_iteration, 0, static_cast<int>(outputs.size())));
  const std::vector<std::vector<double>> sampling(outputs.begin() + static_cast<std::ptrdiff_t>(first_sampling), outputs.end());
  const workflow::PredictiveRows predicted = options_.predictive->rows(sampling, generators_[batch.chain]);
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (i < first_sampling) {
      outputs[i].resize(names_.size() - sampler_column_names().size(), std::nan(""));
      continue;
    }
    const size_t s = i - first_sampling;
    outputs[i].insert(outputs[i].end(), predicted.replicated[s].begin(), predicted.replicated[s].end());
    outputs[i].insert(outputs[i].end(), predicted.log_lik[s].begin(), predicted.log_lik[s].end());
  }
}

void ChainOutput::on_adapted(int chain, double step_size, const std::vector<double>& inverse_metric) {
  if (writers_[chain]) writers_[chain]->write_adaptation(step_size, inverse_metric);
}

void ChainOutput::on_chain_finished(const ChainResult& result) {
  if (writers_[result.chain] && !result.stopped_early) {
    writers_[result.chain]->finish({result.seconds_warmup, result.seconds_sampling});
  }
}

}  // namespace variate::cli
