#pragma once
/// The options `sample` and `fit` take for a run several processes make together, and
/// this process's part in it: which rank it is, the communicator its density and its
/// lockstep use, and (rank 0 of `--nproc N`) the child ranks it started.
///
///   variate sample m.vmod --data d.json --nproc 2                   # one host
///   variate sample m.vmod --data d.json --rendezvous node0:29500 --world-size 2 --rank 1
///
/// A process started by `--nproc`, or by torchrun, finds its rank in the environment
/// (distributed/rendezvous.h) and ignores --nproc. Rank 0 alone writes outputs.

#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "engine/distributed/agreement.h"
#include "engine/distributed/communicator.h"
#include "engine/distributed/run_group.h"
#include "engine/distributed/shard_plan.h"

#include "engine/distributed/child_ranks.h"

namespace variate::cli {

struct DistributedOptions {
  int nproc = 0;  // 0: not asked for; 1: one process, its density cut into blocks as for more
  std::optional<std::string> rendezvous;
  std::optional<int> world_size;
  std::optional<int> rank;
  double timeout_seconds = 60;
  std::string shard = "rows";  // or "none": every rank evaluates the whole model
  int row_blocks = distributed::kDefaultRowBlocks;
  /// Not an option: the command line of the ranks --nproc starts (argv[0] first); empty:
  /// this process's own (a worker runs its jobs in-process and names theirs).
  std::vector<std::string> rank_arguments;
};

void add_distributed_options(CLI::App& command, DistributedOptions& options);

class DistributedRun;

/// DistributedRun::start for a command: prints its error and returns false when it fails.
bool start_distributed(const DistributedOptions& options, std::unique_ptr<DistributedRun>& run,
                       std::ostream& errors = std::cerr);

class DistributedRun {
 public:
  /// nullptr for a run on one process, unless `--nproc 1` asks for one that evaluates
  /// the density as several would (the same blocks, so the same draws). Rank 0 of
  /// --nproc N starts the other ranks here; every rank then waits until all have joined.
  /// @throws ArgumentError for contradictory options; distributed::DistributedError when
  /// the ranks do not meet.
  static std::unique_ptr<DistributedRun> start(const DistributedOptions& options, std::ostream& log);
  ~DistributedRun();

  int rank() const { return group_ ? group_->rank() : 0; }
  int size() const { return group_ ? group_->size() : 1; }
  bool root() const { return rank() == 0; }
  /// This process's index among the ranks of its host (its GPU with --device cuda).
  int local_rank() const { return rank() % local_ranks_; }
  /// Whether every rank runs on this host (--nproc), so that they can share memory.
  bool on_one_host() const { return local_ranks_ == size(); }
  double timeout_seconds() const { return options_.timeout_seconds; }
  bool split_rows() const { return options_.shard == "rows"; }
  int row_blocks() const { return options_.row_blocks; }
  const std::shared_ptr<distributed::Communicator>& communicator() const { return communicator_; }
  Lockstep& lockstep() { return *lockstep_; }

  /// Threads for this rank: `requested` if positive, else this host's cores shared by the
  /// ranks it runs.
  int threads(int requested) const;
  /// Rank 0's seed, or one it draws, for every rank.
  uint64_t agree_on_seed(std::optional<uint64_t> seed);
  /// "2 processes (rendezvous tcp://127.0.0.1:40129, rows split in 16 blocks)".
  std::string describe() const;

  /// After this rank's part ended well: waits for the ranks it started; "" or what went
  /// wrong with them.
  std::string finish();
  /// After a failure: stops the ranks it started; what their exits tell (a killed rank
  /// named with its PID and signal), or "".
  std::string abort();
  /// After `error`: stops the ranks it started (`run` may be null) and returns the
  /// message to report, with what their exits tell.
  static std::string failure(const std::exception& error, DistributedRun* run);

 private:
  DistributedRun() = default;

  DistributedOptions options_;
  std::unique_ptr<distributed::RunGroup> group_;  // null for a run of one process
  std::unique_ptr<distributed::ChildRanks> children_;
  std::shared_ptr<distributed::Communicator> communicator_;
  std::unique_ptr<distributed::CommunicatorLockstep> lockstep_;
  int local_ranks_ = 1;  // ranks on this host
  std::string address_;  // the rendezvous, with the port rank 0 serves
};

}  // namespace variate::cli
