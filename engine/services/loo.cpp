#include "engine/services/loo.h"

#include <algorithm>
#include <climits>

#include "engine/core/argument_error.h"
#include "engine/workflow/loo_document.h"

namespace variate::services {

LooOutcome loo_of(store::Project& project, const Prediction& prediction) {
  int per_chain = INT_MAX;
  for (const auto& chain : prediction.predicted) per_chain = std::min(per_chain, static_cast<int>(chain.log_lik.size()));
  if (prediction.predicted.empty() || per_chain <= 0) throw ArgumentError("the run has no post-warmup draws");
  // [observation][chain][draw]
  const size_t observations = prediction.predicted.front().log_lik.front().size();
  std::vector<diagnostics::Draws> log_lik(observations, diagnostics::Draws(prediction.predicted.size()));
  for (size_t c = 0; c < prediction.predicted.size(); ++c) {
    for (int d = 0; d < per_chain; ++d) {
      const auto& row = prediction.predicted[c].log_lik[static_cast<size_t>(d)];
      for (size_t i = 0; i < observations; ++i) log_lik[i][c].push_back(row[i]);
    }
  }
  LooOutcome outcome{diagnostics::psis_loo(log_lik), static_cast<size_t>(per_chain) * prediction.predicted.size(),
                     per_chain};
  if (prediction.run_id) {
    try {
      project.set_loo(*prediction.run_id, workflow::loo_document(outcome.loo, outcome.draws));
    } catch (const store::ProjectError&) {
    }
  }
  return outcome;
}

std::optional<LooOutcome> stored_loo(const store::Project& project, store::Id run) {
  const std::optional<std::string> document = project.loo_json(run);
  if (!document) return std::nullopt;
  const std::vector<store::ChainRecord> chains = project.chains(run);
  if (chains.empty()) return std::nullopt;
  int64_t per_chain = INT64_MAX;
  for (const auto& chain : chains) per_chain = std::min(per_chain, std::max<int64_t>(0, chain.rows - chain.warmup_iterations));
  try {
    const size_t draws = static_cast<size_t>(per_chain) * chains.size();
    if (workflow::loo_document_draws(*document) != draws) return std::nullopt;
    return LooOutcome{workflow::loo_from_document(*document), draws, static_cast<int>(per_chain)};
  } catch (const ArgumentError&) {
    return std::nullopt;  // damaged: computed again and replaced
  }
}

LooOutcome run_loo(store::Project& project, const std::string& run) {
  if (auto stored = stored_loo(project, find_run(project, run).id)) return std::move(*stored);
  return loo_of(project, predict_stored_run(project, run));
}

}  // namespace variate::services
