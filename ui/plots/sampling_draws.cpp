#include "ui/plots/sampling_draws.h"

#include <algorithm>

namespace variate::ui {

SamplingWindow samplingWindow(const RunData& run) {
  SamplingWindow window;
  if (run.chains.empty()) return window;
  int length = -1;
  for (const ChainDraws& chain : run.chains) {
    const int begin = chain.samplingIterations() > 0 ? chain.warmupIterations() : 0;
    window.begin.push_back(begin);
    length = length < 0 ? chain.iterations() - begin : std::min(length, chain.iterations() - begin);
  }
  window.length = std::max(length, 0);
  return window;
}

namespace {

template <typename T, typename F>
std::vector<std::vector<T>> perChain(const RunData& run, F valueOf) {
  const SamplingWindow window = samplingWindow(run);
  std::vector<std::vector<T>> out(run.chains.size());
  for (size_t c = 0; c < run.chains.size(); ++c) {
    out[c].reserve(static_cast<size_t>(window.length));
    run.chains[c].forEachStats(window.begin[c], window.begin[c] + window.length,
                               [&](int, const SamplerRow& row) { out[c].push_back(valueOf(row)); });
  }
  return out;
}

}  // namespace

diagnostics::Draws samplingDraws(const RunData& run, int column) {
  if (column < 0) return {};
  const SamplingWindow window = samplingWindow(run);
  diagnostics::Draws draws(run.chains.size());
  for (size_t c = 0; c < run.chains.size(); ++c) {
    draws[c] = run.chains[c].column(column, window.begin[c], window.begin[c] + window.length);
  }
  return draws;
}

diagnostics::Draws samplingEnergies(const RunData& run) {
  return perChain<double>(run, [](const SamplerRow& row) { return row.energy; });
}

std::vector<std::vector<bool>> samplingDivergences(const RunData& run) {
  return perChain<bool>(run, [](const SamplerRow& row) { return row.divergent; });
}

}  // namespace variate::ui
