#include "ui/document/run_data.h"

#include <algorithm>

#include "engine/services/setting_table.h"

namespace variate::ui {

namespace {
const char* const kStatusNames[] = {"running", "paused", "finished", "stopped", "interrupted", "failed"};
}

QString statusName(RunStatus status) { return kStatusNames[static_cast<int>(status)]; }

int RunData::plannedIterations() const {
  namespace setting = services::setting;
  const services::Settings& s = config.settings;
  switch (config.method) {
    case services::Method::advi: return s.get(setting::output_draws);
    case services::Method::pathfinder:
      return s.get(setting::num_paths) > 1 && s.get(setting::psis_resample) ? s.get(setting::psis_draws)
                                                                             : s.get(setting::num_paths) * s.get(setting::path_draws);
    case services::Method::optimize: return std::max(1, s.get(setting::laplace_draws));
    default: break;
  }
  // "run more draws" adds to draws; the reparameterization pilot's iterations have no rows.
  int planned = s.get(setting::warmup) + s.get(setting::draws) - config.reparamPilot;
  // Auto-stop's rounds run on as long as the rule needs.
  if (s.get(setting::until_ess)) {
    for (const auto& chain : chains) planned = std::max(planned, chain.iterations());
  }
  return planned;
}

int RunData::samplingDrawsPerChain() const {
  if (chains.empty()) return 0;
  int shortest = chains.front().samplingIterations();
  for (const auto& chain : chains) shortest = std::min(shortest, chain.samplingIterations());
  return shortest;
}

bool RunData::summaryIsCurrent() const {
  if (chains.empty()) return true;
  const int sampling = samplingDrawsPerChain();
  int shortest = chains.front().iterations();
  for (const auto& chain : chains) shortest = std::min(shortest, chain.iterations());
  // An ended run's summary reads every draw; a live one's may be thinned.
  return summary.chains == static_cast<int>(chains.size()) && summary.fromWarmup == (sampling == 0) &&
         summary.drawsPerChain == (sampling == 0 ? shortest : sampling) && (isActive() || summary.stride == 1);
}

void RunData::append(const DrawBlockPtr& block, qint64 nowMs) {
  if (block->chain >= static_cast<int>(chains.size())) {
    chains.resize(block->chain + 1);
    chainStates.resize(block->chain + 1);
  }
  ChainState& state = chainStates[block->chain];
  if (state.firstDrawMs < 0) {
    state.firstDrawMs = nowMs;
    state.iterationsAtFirstDraw = block->firstIteration + block->rows();
  }
  state.lastDrawMs = nowMs;
  chains[block->chain].append(block);
}

std::optional<double> RunData::drawsPerSecond(int chain) const {
  if (chain >= static_cast<int>(chains.size())) return std::nullopt;
  const ChainState& state = chainStates[chain];
  const int done = chains[chain].iterations() - state.iterationsAtFirstDraw;
  const double seconds = (state.lastDrawMs - state.firstDrawMs) / 1000.0;
  if (done <= 0 || seconds <= 0.05) return std::nullopt;
  return done / seconds;
}

std::optional<double> RunData::secondsLeft(int chain) const {
  const auto rate = drawsPerSecond(chain);
  if (!rate) return std::nullopt;
  const int left = plannedIterations() - chains[chain].iterations();
  return std::max(0, left) / *rate;
}

}  // namespace variate::ui
