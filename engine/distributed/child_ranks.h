#pragma once
/// The ranks of a run on one host that rank 0 starts (`variate sample --nproc N`, the
/// studio's Processes): ranks 1..N-1 as child processes — by default copies of this
/// program with its own arguments — that find the run through VARIATE_RANK,
/// VARIATE_WORLD_SIZE and VARIATE_RENDEZVOUS. Rank 0 waits for them by PID and, when
/// something fails, stops its own children and no other process: SIGTERM, then SIGKILL
/// after a grace period. A child dies with its parent (PR_SET_PDEATHSIG, see
/// follow_parent_rank), so a killed rank 0 leaves no orphans.

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace variate::distributed {

class ChildRanks {
 public:
  /// Starts ranks 1..world_size-1 at `rendezvous` ("tcp://127.0.0.1:PORT"): `executable`
  /// (empty: this program's) with `arguments` (argv[0] first; empty: this process's own).
  /// @throws DistributedError when a child cannot be started.
  ChildRanks(int world_size, const std::string& rendezvous, std::string executable = "",
             std::vector<std::string> arguments = {});
  /// Stops the children still running.
  ~ChildRanks();
  ChildRanks(const ChildRanks&) = delete;
  ChildRanks& operator=(const ChildRanks&) = delete;

  /// Without blocking: what happened to the first child found to have exited unasked
  /// ("rank 2 (pid 1234) was killed by signal 9 (Killed)"), or "" while all run or ended
  /// well.
  std::string poll_failure();
  /// Waits up to `timeout` for every child to exit; "" when all exited with status 0,
  /// else what happened to the first that did not (or "still running").
  std::string wait(std::chrono::milliseconds timeout);
  /// SIGTERM to the children still running, SIGKILL to those left after `grace`; reaps
  /// them all.
  void stop(std::chrono::milliseconds grace = std::chrono::seconds(2));

  const std::vector<pid_t>& pids() const { return pids_; }

 private:
  std::string describe(size_t i) const;
  void reap(bool block);

  std::vector<pid_t> pids_;  // rank i + 1
  std::vector<int> status_;  // waitpid status once reaped
  std::vector<bool> reaped_;
};

/// In a child rank: dies with the parent that started it (VARIATE_PARENT_PID), or exits
/// at once when that parent is already gone. Does nothing in other processes.
void follow_parent_rank();

}  // namespace variate::distributed
