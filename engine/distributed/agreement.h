#pragma once
/// Checks that the ranks of a run hold the same thing: the same model, data shapes and
/// plan before they start (a fingerprint each), and the same state at every iteration
/// while they run (the Lockstep the samplers call, core/lockstep.h), which also carries
/// a stop that any rank was asked for to all of them.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/lockstep.h"
#include "engine/distributed/communicator.h"

namespace variate::distributed {

/// FNV-1a over bytes, for fingerprints (the same on every host).
uint64_t fnv1a(const void* data, size_t size, uint64_t hash = 14695981039346656037ull);
uint64_t fnv1a(const std::string& text, uint64_t hash = 14695981039346656037ull);

/// @throws DistributedError naming the ranks whose fingerprint differs from rank 0's and
/// `what` they disagree about.
void require_agreement(Communicator& communicator, uint64_t fingerprint, const std::string& what);

/// Rank 0's seed (or, without one, a seed rank 0 draws) on every rank: one allgather.
uint64_t agree_on_seed(Communicator& communicator, std::optional<uint64_t> seed);

class CommunicatorLockstep final : public Lockstep {
 public:
  explicit CommunicatorLockstep(std::shared_ptr<Communicator> communicator);
  /// One allgather of (state hash, stop) per call.
  /// @throws DistributedError when a rank's state differs from rank 0's.
  bool agree(const double* state, size_t size, bool stop_requested) override;

 private:
  std::shared_ptr<Communicator> communicator_;
  long step_ = 0;
};

}  // namespace variate::distributed
