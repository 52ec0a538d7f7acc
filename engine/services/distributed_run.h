#pragma once
/// This process's part in a run several processes make together: which rank it is, the
/// communicator its density and its lockstep use, and (rank 0 of `nproc` on one host) the
/// other ranks it started. Every front end's run on several processes starts here: the
/// CLI's `--nproc` and `--rendezvous`, the studio's Processes, a worker's job.
///
///   variate sample m.vmod --data d.json --nproc 2                   # one host
///   variate sample m.vmod --data d.json --rendezvous node0:29500 --world-size 2 --rank 1
///
/// A process started as another rank (by rank 0, or by torchrun) finds its rank in the
/// environment (distributed/rendezvous.h) and ignores nproc. Rank 0 alone records and
/// reports.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/lockstep.h"
#include "engine/distributed/agreement.h"
#include "engine/distributed/child_ranks.h"
#include "engine/distributed/communicator.h"
#include "engine/distributed/run_group.h"

namespace variate::services {

/// Where a run's processes come from.
struct RankPlan {
  /// Processes on this host (the setting nproc); 1 evaluates the density in the blocks
  /// several would (the same draws); none: one process, its density whole.
  std::optional<int> nproc;
  /// Across hosts: HOST:PORT (or file:PATH) where rank 0 serves, the number of processes
  /// and this one's rank.
  std::optional<std::string> rendezvous;
  std::optional<int> world_size;
  std::optional<int> rank;
  double timeout_seconds = 60;
  bool split_rows = true;
  int row_blocks = 16;
  /// The program ranks 1..N-1 of nproc run (empty: this one) and their command line
  /// (argv[0] first).
  std::string rank_program;
  std::vector<std::string> rank_command;

  bool asked() const { return nproc || rendezvous || world_size || rank; }
};

class DistributedRun {
 public:
  /// nullptr for a run of one process whose density is whole. Rank 0 of nproc N starts
  /// the other ranks here; every rank then waits until all have joined. Across hosts, rank
  /// 0 tells the address it serves before it waits (`tell`), which the others need.
  /// @throws ArgumentError for contradictory options; distributed::DistributedError when
  /// the ranks do not meet.
  static std::unique_ptr<DistributedRun> start(const RankPlan& plan,
                                               const std::function<void(const std::string&)>& tell = {});
  ~DistributedRun();

  int rank() const { return group_ ? group_->rank() : 0; }
  int size() const { return group_ ? group_->size() : 1; }
  bool root() const { return rank() == 0; }
  /// This process's index among the ranks of its host (its GPU with device cuda).
  int local_rank() const { return rank() % local_ranks_; }
  /// Whether every rank runs on this host, so that they can share memory.
  bool on_one_host() const { return local_ranks_ == size(); }
  double timeout_seconds() const { return plan_.timeout_seconds; }
  bool split_rows() const { return plan_.split_rows; }
  int row_blocks() const { return plan_.row_blocks; }
  const std::shared_ptr<distributed::Communicator>& communicator() const { return communicator_; }
  Lockstep& lockstep() { return *lockstep_; }

  /// Threads for this rank: `requested` if positive, else this host's cores shared by its
  /// ranks.
  int threads(int requested) const;
  /// Rank 0's seed, or one it draws, for every rank.
  uint64_t agree_on_seed(std::optional<uint64_t> seed);
  /// The next of the tickets 0, 1, 2, ... that all ranks draw from `counter` (each ticket
  /// once): work shared out as each rank becomes free.
  int64_t next_ticket(const std::string& counter);
  /// "2 processes (rendezvous tcp://127.0.0.1:40129, rows split in 16 blocks)".
  std::string describe() const;

  /// After this rank's part ended well: waits for the ranks it started.
  /// @throws distributed::DistributedError naming what went wrong with one.
  void finish();
  /// After a failure: stops the ranks it started; what their exits tell (a killed rank
  /// named with its PID and signal), or "".
  std::string abort();
  /// The message for `error`, with what the other ranks' exits tell (`run` may be null);
  /// stops them.
  static std::string failure(const std::exception& error, DistributedRun* run);

 private:
  DistributedRun() = default;

  RankPlan plan_;
  std::unique_ptr<distributed::RunGroup> group_;  // null for a run of one process
  std::unique_ptr<distributed::ChildRanks> children_;
  std::shared_ptr<distributed::Communicator> communicator_;
  std::unique_ptr<distributed::CommunicatorLockstep> lockstep_;
  int local_ranks_ = 1;  // ranks on this host
  std::string address_;  // the rendezvous, with the port rank 0 serves
};

}  // namespace variate::services
