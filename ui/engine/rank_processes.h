#pragma once
/// The other processes of a studio run on several (the Run panel's Processes): the studio
/// is rank 0 and serves the rendezvous on 127.0.0.1; ranks 1..N-1 are `variate sample`
/// processes on this machine, given the model and the data set as files in a temporary
/// folder and, as options, every setting the ranks must share. From there every rank
/// makes the same collectives in the same order (engine/cli/sample_command.cpp): the join
/// and the "run" communicator here, then compile_sharded, agree_on_seed and sample_nuts
/// in lockstep (nuts_run.cpp).
/// (Engine-side header: include it from ui/engine .cpp files only; it pulls in ATen.)
///
///   RankProcesses ranks(request, threads);   // started, and all of them joined
///   compile_sharded(compiled, data, backend, ranks.communicator(), RankProcesses::kRowBlocks);

#include <memory>
#include <string>

#include <QString>
#include <QTemporaryDir>

#include "engine/distributed/agreement.h"
#include "engine/distributed/child_ranks.h"
#include "engine/distributed/run_group.h"
#include "engine/distributed/shard_plan.h"

#include "ui/document/run_request.h"

namespace variate::ui {

class RankProcesses {
 public:
  /// The blocks the rows are cut into on every rank, whatever their number.
  static constexpr int kRowBlocks = distributed::kDefaultRowBlocks;

  /// Writes the files, starts ranks 1..N-1 (`threads` intra-op threads each) and waits
  /// until all have joined.
  /// @throws distributed::DistributedError naming a rank that died or did not join;
  /// ArgumentError when `variate` is not found or the files cannot be written.
  RankProcesses(const RunRequest& request, int threads);
  /// Stops the ranks still running.
  ~RankProcesses();
  RankProcesses(const RankProcesses&) = delete;
  RankProcesses& operator=(const RankProcesses&) = delete;

  const std::shared_ptr<distributed::Communicator>& communicator() const { return communicator_; }
  Lockstep& lockstep() { return *lockstep_; }
  /// "2 processes (rendezvous tcp://127.0.0.1:40129, rows split in 16 blocks)", as
  /// `variate sample` says it.
  QString describe() const;

  /// After rank 0's part ended well: waits for the others; "" or what went wrong with one.
  std::string finish();
  /// After a failure: stops the others; what their exits tell (a killed rank named with
  /// its PID and signal), or "".
  std::string abort();

 private:
  QTemporaryDir files_;  // the model and the data; removed after the ranks are stopped
  std::unique_ptr<distributed::RunGroup> group_;
  std::unique_ptr<distributed::ChildRanks> children_;
  std::shared_ptr<distributed::Communicator> communicator_;
  std::unique_ptr<distributed::CommunicatorLockstep> lockstep_;
};

}  // namespace variate::ui
