// Project: the replications of a simulation-based calibration run.

#include <cstring>

#include "engine/store/database.h"
#include "engine/store/project.h"

namespace variate::store {
namespace {

std::string ranks_blob(const std::vector<int64_t>& ranks) {
  std::string bytes(ranks.size() * sizeof(int64_t), '\0');
  if (!ranks.empty()) std::memcpy(bytes.data(), ranks.data(), bytes.size());
  return bytes;
}

std::vector<int64_t> ranks_of(const std::string& bytes) {
  std::vector<int64_t> ranks(bytes.size() / sizeof(int64_t));
  if (!ranks.empty()) std::memcpy(ranks.data(), bytes.data(), ranks.size() * sizeof(int64_t));
  return ranks;
}

}  // namespace

void Project::write_sbc_replication(Id run_id, const SbcReplicationRecord& r) {
  const std::string where =
      "run " + std::to_string(run_id) + ", replication " + std::to_string(r.replication + 1) + ": ";
  const RunInfo info = run(run_id);
  if (info.method != RunMethod::sbc) db_->fail_plain(where + "not a simulation-based calibration run");
  if (!r.ranks.empty() && r.ranks.size() != info.columns.size()) {
    db_->fail_plain(where + std::to_string(r.ranks.size()) + " ranks, the run has " +
                    std::to_string(info.columns.size()) + " quantities");
  }
  for (const int64_t rank : r.ranks) {
    if (rank < 0 || rank > r.max_rank) {
      db_->fail_plain(where + "a rank of " + std::to_string(rank) + " outside 0 to " + std::to_string(r.max_rank));
    }
  }
  Transaction transaction(*db_);
  Statement exists(*db_, "SELECT 1 FROM sbc_replications WHERE run_id = ? AND replication = ?");
  exists.bind(1, run_id).bind(2, r.replication);
  if (exists.step()) db_->fail_plain(where + "stored already (a replication is counted once)");
  exists.reset();
  int64_t seed;
  std::memcpy(&seed, &r.seed, sizeof seed);  // SQLite integers are signed 64-bit
  Statement insert(*db_,
                   "INSERT INTO sbc_replications (run_id, replication, seed, max_rank, divergences, max_rhat, failure, "
                   "ranks) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  insert.bind(1, run_id)
      .bind(2, r.replication)
      .bind(3, seed)
      .bind(4, r.max_rank)
      .bind(5, r.divergences)
      .bind(6, r.max_rhat)
      .bind(7, r.failure)
      .bind_blob(8, ranks_blob(r.ranks))
      .run();
  refresh_heartbeat(run_id);
  transaction.commit();
}

std::vector<SbcReplicationRecord> Project::sbc_replications(Id run_id) const {
  Statement s(*db_,
              "SELECT replication, seed, ranks, max_rank, divergences, max_rhat, failure FROM sbc_replications "
              "WHERE run_id = ? ORDER BY replication");
  s.bind(1, run_id);
  std::vector<SbcReplicationRecord> replications;
  while (s.step()) {
    SbcReplicationRecord r;
    r.replication = static_cast<int>(s.read_int(0));
    const int64_t seed = s.read_int(1);
    std::memcpy(&r.seed, &seed, sizeof seed);
    r.ranks = ranks_of(s.read_blob(2));
    r.max_rank = s.read_int(3);
    r.divergences = s.read_int(4);
    r.max_rhat = s.read_double(5);
    r.failure = s.read_text(6);
    replications.push_back(std::move(r));
  }
  return replications;
}

}  // namespace variate::store
