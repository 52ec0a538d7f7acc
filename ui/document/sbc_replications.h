#pragma once
/// The replications of an SBC run as the studio holds them: those ended so far, read from
/// the project or arrived live, each once.

#include <vector>

#include "engine/store/project_records.h"

namespace variate::ui {

struct SbcReplications {
  std::vector<store::SbcReplicationRecord> ended;  ///< in the order they ended
  int64_t maxRank = 0;                             ///< ranks are 0 ... maxRank

  /// Adds one (a replication already held is left as it is).
  void add(const store::SbcReplicationRecord& replication);
  /// Those whose fit had problems: failed, divergent transitions, or R-hat above 1.01.
  static bool hadProblems(const store::SbcReplicationRecord& replication);
};

}  // namespace variate::ui
