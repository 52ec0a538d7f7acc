#pragma once
/// The processes of one run, met at a rendezvous (rendezvous.h): rank 0 serves a TCP
/// store (or all share a file store), every rank checks in, and each chain or fit gets
/// its own communicator — its own c10d process group over Gloo under its own key prefix,
/// since one group used from several threads gives wrong results without an error.
/// The only c10d code is in its .cpp, so the rest of the engine compiles against any
/// LibTorch.
///
///   RunGroup group(spec);        // rank 0: listening now (group.port())
///   group.join();                // everyone is here, or DistributedError naming who is not
///   auto communicator = group.communicator("chain-1");

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "engine/distributed/communicator.h"
#include "engine/distributed/rendezvous.h"

namespace variate::distributed {

class RunGroup {
 public:
  /// Creates the store: rank 0 binds its port at once (so a launcher can hand it to the
  /// processes it starts); the others connect, waiting up to the timeout.
  /// @throws DistributedError when the store cannot be reached or served.
  explicit RunGroup(RendezvousSpec spec);
  ~RunGroup();
  RunGroup(const RunGroup&) = delete;
  RunGroup& operator=(const RunGroup&) = delete;

  const RendezvousSpec& spec() const;
  int rank() const;
  int size() const;
  /// The TCP port of the store: the one the system picked when the spec said 0.
  uint16_t port() const;

  /// Checks in and waits until all ranks have (within the timeout), calling
  /// `while_waiting` every 20 ms (a launcher checks there that its children still run,
  /// and throws if one is gone).
  /// @throws DistributedError "rank 2 of 4 did not join within 60 s (tcp://...)", or when
  /// two processes claim the same rank.
  void join(const std::function<void()>& while_waiting = {});

  /// Adds `amount` to the counter `key` of the group's store (0 before the first add) and
  /// returns its new value: one atomic count all ranks share (safe from several threads).
  /// @throws DistributedError when the store cannot be reached.
  int64_t add(const std::string& key, int64_t amount);

  /// A communicator of its own over Gloo; every rank must ask for the same names in the
  /// same order.
  /// @throws DistributedError when the group cannot be formed.
  std::shared_ptr<Communicator> communicator(const std::string& name);

  /// Whether this LibTorch has NCCL (a CUDA build compiled with USE_C10D_NCCL).
  static bool has_nccl();

  /// Shared with the communicators it makes (which outlive it safely).
  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace variate::distributed
