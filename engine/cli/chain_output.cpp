#include "engine/cli/chain_output.h"

#include <algorithm>
#include <filesystem>

#include "engine/mcmc/sampler_columns.h"

namespace variate::cli {

ChainOutput::ChainOutput(int chains, ChainOutputOptions options)
    : options_(std::move(options)),
      total_iterations_(static_cast<int>(options_.info.num_warmup + options_.info.num_samples)),
      writers_(chains) {}

void ChainOutput::start(const std::vector<std::string>& columns, uint64_t seed, const std::string& reparam) {
  options_.info.run.seed = seed;
  options_.info.reparam = reparam;
  if (!options_.directory) return;
  std::filesystem::create_directories(*options_.directory);
  for (size_t chain = 0; chain < writers_.size(); ++chain) {
    io::SampleCsvInfo info = options_.info;
    info.run.chain_id = static_cast<int64_t>(chain + 1);
    const std::string path =
        (std::filesystem::path(*options_.directory) / ("chain_" + std::to_string(chain + 1) + ".csv")).string();
    writers_[chain] = std::make_unique<io::StanCsvWriter>(path, info, columns);
  }
}

// Runs on the chain's own thread: each chain touches only its own writer.
void ChainOutput::on_draws(const DrawBatch& batch, const services::Rows& rows) {
  if (auto& writer = writers_[batch.chain]) {
    std::vector<std::vector<double>> written;
    for (size_t i = 0; i < rows.size(); ++i) {
      const bool warmup = batch.first_iteration + static_cast<int>(i) < batch.warmup_iterations;
      if (warmup && !options_.info.save_warmup) continue;
      std::vector<double> row = sampler_values(batch.stats[i]);
      row.insert(row.end(), rows[i].begin(), rows[i].end());
      written.push_back(std::move(row));
    }
    if (!written.empty()) writer->write_draws(written);
  }
  if (!options_.progress || !options_.progress_stream) return;
  // Report each 10% passed in this batch.
  const int last = batch.first_iteration + static_cast<int>(batch.positions.size());
  const int step = std::max(1, total_iterations_ / 10);
  if (last / step == batch.first_iteration / step && last != total_iterations_) return;
  std::lock_guard<std::mutex> lock(progress_mutex_);
  *options_.progress_stream << "Chain " << batch.chain + 1 << " Iteration: " << last << " / " << total_iterations_
                            << " [" << (100 * last / std::max(1, total_iterations_)) << "%]  ("
                            << (last <= batch.warmup_iterations ? "Warmup" : "Sampling") << ")\n";
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
