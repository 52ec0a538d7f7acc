#pragma once
/// The memory the ranks of a data-parallel fit on one host share (POSIX shared memory):
/// one copy of the weights and of Adam's moments, and one gradient slot per rank. A step
/// then needs no messages: each rank writes its gradient into its slot, and after a
/// barrier sums the slots over its own segment of the weights and takes Adam's step
/// there (ZeRO stage 1, Rajbhandari et al. 2020, without its gather, since every rank
/// reads the same weights). Over loopback TCP, Gloo's allreduce of the VAE's 2.6 MB of
/// gradients takes 2–3 ms on this machine kind, about half a step; here the sum reads
/// 2.6 MB from memory. The slots are added in rank order, so 2 ranks give the bits of
/// one process adding the same two shards.
///
///   SharedTrainingMemory memory(*communicator, weights, slot_size, timeout);
///   memory.slot(rank) ... memory.barrier(); ... memory.barrier();
///
/// The segment is unlinked as soon as every rank has mapped it, so nothing is left behind
/// when a rank is killed.

#include <chrono>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <ATen/core/Tensor.h>

#include "engine/distributed/communicator.h"

namespace variate::deep {

class SharedTrainingMemory {
 public:
  /// Every rank calls it at the same point (it agrees on the segment over
  /// `communicator`). Sizes in elements of `dtype` (float32 or float64).
  /// @throws DistributedError when the segment cannot be made or mapped, or a rank
  /// stops responding.
  SharedTrainingMemory(distributed::Communicator& communicator, int64_t weights, int64_t slot_size,
                       at::ScalarType dtype, std::chrono::milliseconds timeout);
  ~SharedTrainingMemory();
  SharedTrainingMemory(const SharedTrainingMemory&) = delete;
  SharedTrainingMemory& operator=(const SharedTrainingMemory&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  /// Views into the shared segment.
  at::Tensor weights() const;
  at::Tensor first_moment() const;
  at::Tensor second_moment() const;
  at::Tensor slot(int rank) const;
  /// This rank's part of the weights: [first, second).
  std::pair<int64_t, int64_t> segment() const;

  /// Waits until every rank has arrived.
  /// @throws DistributedError "rank 1 of 2 stopped responding (process 4242 is gone)",
  /// or when one is not there within the timeout.
  void barrier();

 private:
  struct Control;
  int rank_ = 0;
  int size_ = 1;
  int64_t weights_ = 0;
  int64_t slot_size_ = 0;
  at::ScalarType dtype_;
  std::chrono::milliseconds timeout_;
  void* mapping_ = nullptr;
  size_t bytes_ = 0;
  Control* control_ = nullptr;
  char* data_ = nullptr;
  unsigned barrier_generation_ = 0;
};

}  // namespace variate::deep
