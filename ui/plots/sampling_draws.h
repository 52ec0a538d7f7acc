#pragma once
/// The draws the analysis panels (pairs, ranks, autocorrelation, energy, forest) summarize:
/// each chain's post-warmup draws (its warmup draws while it has none yet), every chain
/// cut to the shortest one's length, because ranks among chains and per-chain
/// comparisons need chains of equal length.

#include <vector>

#include "engine/diagnostics/draws.h"

#include "ui/document/run_data.h"

namespace variate::ui {

/// Where each chain's summarized draws begin and how many there are (the same for all).
struct SamplingWindow {
  std::vector<int> begin;  // per chain
  int length = 0;
};

SamplingWindow samplingWindow(const RunData& run);

/// draws[chain][i] of one output column; no chains when the column does not exist.
diagnostics::Draws samplingDraws(const RunData& run, int column);
/// The sampler's energy (energy__) of those draws.
diagnostics::Draws samplingEnergies(const RunData& run);
/// Whether each of those draws ended a divergent transition.
std::vector<std::vector<bool>> samplingDivergences(const RunData& run);

}  // namespace variate::ui
