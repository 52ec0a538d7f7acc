#pragma once
/// The collectives a data-parallel run needs, between the processes (ranks) of one run:
/// a size-1 version for a single process, and LibTorch's c10d (Gloo) behind RunGroup
/// (run_group.h). Every rank calls the same collectives in the same order from one
/// thread; buffers are contiguous CPU tensors (float64 or int64 for the samplers'
/// densities, float32 for a network's gradients).

#include <ATen/core/Tensor.h>

namespace variate::distributed {

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// Fills `gathered` [size, *local.shape] with every rank's `local`, in rank order; all
  /// ranks receive the same bits.
  /// @throws DistributedError naming the ranks that did not respond.
  virtual void allgather(const at::Tensor& local, at::Tensor& gathered) = 0;
  /// Replaces `buffer` with the sum of every rank's `buffer`; all ranks receive the same
  /// bits (with two ranks a + b, the same as one process adding the two).
  /// @throws DistributedError naming the ranks that did not respond.
  virtual void allreduce_sum(at::Tensor& buffer) = 0;
  /// @throws DistributedError naming the ranks that did not respond.
  virtual void barrier() = 0;
};

/// The only process of a run: gathering copies.
class LocalCommunicator final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void allgather(const at::Tensor& local, at::Tensor& gathered) override;
  void allreduce_sum(at::Tensor&) override {}
  void barrier() override {}
};

}  // namespace variate::distributed
