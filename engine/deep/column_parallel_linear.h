#pragma once
/// A linear layer whose output units are split across the ranks of a run: the
/// column-parallel linear layer of Megatron-LM (Shoeybi et al. 2019, §3, the "f" and "g"
/// operators). Rank r holds rows [first, last) of the weight [out, in] and of the bias, so
/// an optimizer on this module sees only its shard; forward returns the full output on
/// every rank.
///
///   torch::nn::Linear full(400, 784);          // the same weights on every rank
///   ColumnParallelLinear output(full, communicator);
///   at::Tensor logits = output->forward(h);   // [B, 784] on every rank
///
/// Assumption: everything after this layer (the loss included) is computed identically on
/// every rank, on the same input. Backward then hands each rank only its columns of the
/// incoming gradient (the other columns belong to the other ranks' weights), and sums the
/// ranks' gradients with respect to the input, each of which covers only its own units.
/// A loss that differs between ranks would get wrong gradients without an error.
///
/// Every rank calls forward and backward in the same order (each is one collective); the
/// input is a CPU tensor (Gloo's buffers), float32 or float64.

#include <cstdint>
#include <memory>
#include <utility>

#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include "engine/distributed/communicator.h"

namespace variate::deep {

/// The output units [first, second) of `rank` when `units` are cut into `size` contiguous,
/// nearly equal parts in rank order (widths differ by at most one).
std::pair<int64_t, int64_t> column_shard(int64_t units, int rank, int size);

class ColumnParallelLinearImpl : public torch::nn::Module {
 public:
  /// This rank's shard of `full` (copied, so the two can be trained apart).
  /// @throws ArgumentError when there is no communicator, or fewer output units than ranks.
  ColumnParallelLinearImpl(const torch::nn::Linear& full, std::shared_ptr<distributed::Communicator> communicator);

  /// x [*, in] -> [*, out], the same on every rank.
  /// @throws ArgumentError when x's last axis is not `in` or x is not on the CPU.
  /// @throws DistributedError when a rank does not take part.
  at::Tensor forward(const at::Tensor& x);

  int64_t in_features() const { return in_; }
  int64_t out_features() const { return out_; }
  /// This rank's output units [first, second).
  std::pair<int64_t, int64_t> units() const { return column_shard(out_, communicator_->rank(), communicator_->size()); }

  /// This rank's rows of the full weight [last - first, in] and bias (undefined without).
  at::Tensor weight;
  at::Tensor bias;

 private:
  std::shared_ptr<distributed::Communicator> communicator_;
  int64_t in_;
  int64_t out_;
};

TORCH_MODULE(ColumnParallelLinear);

}  // namespace variate::deep
