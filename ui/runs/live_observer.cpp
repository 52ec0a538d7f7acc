#include "ui/runs/live_observer.h"

namespace variate::ui {

SamplerRow samplerRow(const NutsResult& stats) {
  SamplerRow row;
  row.logDensity = stats.log_density;
  row.acceptStat = stats.accept_stat;
  row.stepSize = stats.step_size;
  row.treeDepth = stats.tree_depth;
  row.leapfrogSteps = stats.leapfrog_steps;
  row.divergent = stats.has_divergence;
  row.energy = stats.energy;
  return row;
}

void LiveObserver::on_draws(const DrawBatch& batch, const services::Rows& rows) {
  auto block = std::make_shared<DrawBlock>();
  block->chain = batch.chain;
  const auto chain = static_cast<size_t>(batch.chain);
  block->firstIteration = batch.first_iteration + (chain < offsets_.size() ? offsets_[chain] : 0);
  block->warmupIterations = chain < warmups_.size() ? warmups_[chain] : batch.warmup_iterations;
  block->columns = rows.empty() ? 0 : static_cast<int>(rows.front().size());
  block->values.reserve(rows.size() * static_cast<size_t>(block->columns));
  for (const auto& row : rows) block->values.insert(block->values.end(), row.begin(), row.end());
  block->stats.reserve(batch.stats.size());
  for (const auto& stats : batch.stats) block->stats.push_back(samplerRow(stats));
  mailbox_.post(DrawBlockPtr(std::move(block)));
}

void LiveObserver::on_adapted(int chain, double step_size, const std::vector<double>& inverse_metric) {
  mailbox_.post(ChainAdaptation{chain, step_size, inverse_metric});
}

void LiveObserver::on_chain_finished(const ChainResult& result) {
  ChainEnd end;
  end.chain = result.chain;
  if (!result.positions.empty()) end.lastPosition = result.positions.back();
  end.stepSize = result.step_size;
  end.inverseMetric = result.inverse_metric;
  end.stoppedEarly = result.stopped_early;
  end.secondsWarmup = result.seconds_warmup;
  end.secondsSampling = result.seconds_sampling;
  mailbox_.post(std::move(end));
}

}  // namespace variate::ui
