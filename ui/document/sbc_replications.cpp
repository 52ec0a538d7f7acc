#include "ui/document/sbc_replications.h"

#include <algorithm>

#include "engine/diagnostics/thresholds.h"

namespace variate::ui {

void SbcReplications::add(const store::SbcReplicationRecord& replication) {
  const bool held = std::any_of(ended.begin(), ended.end(), [&](const store::SbcReplicationRecord& r) {
    return r.replication == replication.replication;
  });
  if (held) return;
  ended.push_back(replication);
  if (!replication.ranks.empty()) maxRank = replication.max_rank;
}

bool SbcReplications::hadProblems(const store::SbcReplicationRecord& r) {
  return !r.failure.empty() || r.divergences > 0 || r.max_rhat > diagnostics::kMaxRhat;
}

}  // namespace variate::ui
