#pragma once
/// What keeps the copies of one run in step when several processes make it together (a
/// data-parallel run, engine/distributed): every copy runs the same sampler on the same
/// numbers, so at each iteration they hand over their state to be compared, and a stop
/// asked of any copy (the studio's Stop reaches one process only) is taken by all at the
/// same iteration — a copy that stopped alone would leave the others waiting.

#include <cstddef>

namespace variate {

class Lockstep {
 public:
  virtual ~Lockstep() = default;
  /// Called by every copy at the same point of the run with its state (`size` doubles,
  /// possibly none) and whether it was asked to stop. Returns whether the run stops here.
  /// @throws an error naming the iteration when the copies' states differ, or when
  /// another copy cannot be reached.
  virtual bool agree(const double* state, size_t size, bool stop_requested) = 0;
};

}  // namespace variate
