#pragma once
/// An SBC run's ranks as CSV, `variate sbc --output`'s ranks.csv and the studio's export:
/// replication (from 1), seed, divergences, max_rhat, failed, then one column of ranks per
/// quantity (Stan CSV names), a row per replication that ended, by replication; a failed
/// replication's ranks are empty.

#include <ostream>
#include <string>
#include <vector>

#include "engine/store/project_records.h"

namespace variate::services {

void write_sbc_ranks_csv(std::ostream& out, const std::vector<std::string>& quantities,
                         std::vector<store::SbcReplicationRecord> replications);

}  // namespace variate::services
