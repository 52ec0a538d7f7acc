#include "engine/services/sbc_ranks_csv.h"

#include <algorithm>
#include <cstdio>

namespace variate::services {

void write_sbc_ranks_csv(std::ostream& out, const std::vector<std::string>& quantities,
                         std::vector<store::SbcReplicationRecord> replications) {
  std::sort(replications.begin(), replications.end(),
            [](const auto& a, const auto& b) { return a.replication < b.replication; });
  out << "replication,seed,divergences,max_rhat,failed";
  for (const auto& name : quantities) out << "," << name;
  out << "\n";
  for (const auto& r : replications) {
    char rhat[32];
    std::snprintf(rhat, sizeof rhat, "%.4f", r.max_rhat);
    out << r.replication + 1 << "," << r.seed << "," << r.divergences << "," << rhat << ","
        << (r.failure.empty() ? 0 : 1);
    for (size_t q = 0; q < quantities.size(); ++q) {
      out << ",";
      if (q < r.ranks.size()) out << r.ranks[q];
    }
    out << "\n";
  }
}

}  // namespace variate::services
