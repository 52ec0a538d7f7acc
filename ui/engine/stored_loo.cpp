#include "ui/engine/stored_loo.h"

#include <algorithm>

#include "engine/core/argument_error.h"
#include "engine/store/project.h"
#include "engine/workflow/loo_document.h"

namespace variate::ui {

std::optional<RunPrediction> storedLoo(const store::Project& project, qint64 runId) {
  const std::optional<std::string> document = project.loo_json(runId);
  if (!document) return std::nullopt;
  const std::vector<store::ChainRecord> chains = project.chains(runId);
  if (chains.empty()) return std::nullopt;
  // The draws predictRun uses: every chain cut to the shortest one's post-warmup rows.
  int64_t perChain = INT64_MAX;
  for (const auto& chain : chains) perChain = std::min(perChain, std::max<int64_t>(0, chain.rows - chain.warmup_iterations));
  RunPrediction prediction;
  prediction.runId = runId;
  prediction.drawsPerChain = static_cast<int>(perChain);
  prediction.looOnly = true;
  try {
    if (workflow::loo_document_draws(*document) != static_cast<size_t>(perChain) * chains.size()) return std::nullopt;
    prediction.loo = workflow::loo_from_document(*document);
  } catch (const ArgumentError&) {
    return std::nullopt;  // damaged: computed again and replaced
  }
  return prediction;
}

void storeLoo(store::Project& project, const RunPrediction& prediction, int chains) {
  const size_t draws = static_cast<size_t>(prediction.drawsPerChain) * static_cast<size_t>(chains);
  project.set_loo(prediction.runId, workflow::loo_document(*prediction.loo, draws));
}

}  // namespace variate::ui
