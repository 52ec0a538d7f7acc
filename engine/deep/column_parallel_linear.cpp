// Shoeybi et al. 2019, "Megatron-LM", §3: a column-parallel linear layer, its input passed
// through "copy to ranks" (identity; gradients summed) and its output through "gather
// columns" (all-gather; gradients sliced), as Megatron's copy_to_tensor_model_parallel_region
// and gather_from_tensor_model_parallel_region (megatron/core/tensor_parallel/mappings.py).

#include "engine/deep/column_parallel_linear.h"

#include <algorithm>
#include <string>
#include <vector>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/custom_function.h>

#include "engine/core/argument_error.h"

namespace variate::deep {
namespace {

using distributed::Communicator;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// saved_data holds only IValues; a capsule owns the communicator until backward has run,
// even when the layer is gone by then.
struct CommunicatorCapsule : torch::CustomClassHolder {
  explicit CommunicatorCapsule(std::shared_ptr<Communicator> c) : communicator(std::move(c)) {}
  std::shared_ptr<Communicator> communicator;
};

void save_communicator(AutogradContext* ctx, std::shared_ptr<Communicator> communicator) {
  ctx->saved_data["communicator"] =
      c10::IValue::make_capsule(c10::make_intrusive<CommunicatorCapsule>(std::move(communicator)));
}

Communicator& saved_communicator(AutogradContext* ctx) {
  const c10::intrusive_ptr<torch::CustomClassHolder> capsule = ctx->saved_data.at("communicator").toCapsule();
  return *static_cast<CommunicatorCapsule*>(capsule.get())->communicator;
}

// Identity forward. Each rank's dL/dx covers only its own output units, so backward sums
// the ranks' gradients.
struct CopyToRanks : torch::autograd::Function<CopyToRanks> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& x, std::shared_ptr<Communicator> communicator) {
    save_communicator(ctx, std::move(communicator));
    return x;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grad) {
    // A copy: the incoming gradient may be shared with other nodes.
    at::Tensor sum = grad[0].clone(at::MemoryFormat::Contiguous);
    saved_communicator(ctx).allreduce_sum(sum);
    return {sum, at::Tensor()};
  }
};

// Forward: every rank's columns, side by side in rank order. Backward: this rank's
// columns of the gradient, which is the same on every rank (the header's assumption).
struct GatherColumns : torch::autograd::Function<GatherColumns> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& local, int64_t units,
                            std::shared_ptr<Communicator> communicator) {
    const int size = communicator->size();
    std::vector<int64_t> widths;
    for (int r = 0; r < size; ++r) {
      const auto [first, last] = column_shard(units, r, size);
      widths.push_back(last - first);
    }
    // Allgather needs one shape on every rank: narrower shards are padded at the end.
    const int64_t widest = *std::max_element(widths.begin(), widths.end());
    const at::Tensor padded = widest == local.size(-1) ? local.contiguous()
                                                       : at::constant_pad_nd(local, {0, widest - local.size(-1)});
    std::vector<int64_t> shape = padded.sizes().vec();
    shape.insert(shape.begin(), size);
    at::Tensor gathered = at::empty(shape, padded.options());
    communicator->allgather(padded, gathered);
    std::vector<at::Tensor> columns;
    for (int r = 0; r < size; ++r) columns.push_back(gathered.select(0, r).narrow(-1, 0, widths[r]));
    ctx->saved_data["units"] = units;
    save_communicator(ctx, std::move(communicator));
    return at::cat(columns, -1);
  }

  static variable_list backward(AutogradContext* ctx, variable_list grad) {
    const Communicator& communicator = saved_communicator(ctx);
    const auto [first, last] = column_shard(ctx->saved_data.at("units").toInt(), communicator.rank(), communicator.size());
    return {grad[0].narrow(-1, first, last - first), at::Tensor(), at::Tensor()};
  }
};

}  // namespace

std::pair<int64_t, int64_t> column_shard(int64_t units, int rank, int size) {
  return {units * rank / size, units * (rank + 1) / size};
}

ColumnParallelLinearImpl::ColumnParallelLinearImpl(const torch::nn::Linear& full,
                                                   std::shared_ptr<distributed::Communicator> communicator)
    : communicator_(std::move(communicator)), in_(full->options.in_features()), out_(full->options.out_features()) {
  if (!communicator_) throw ArgumentError("ColumnParallelLinear: communicator is null");
  if (out_ < communicator_->size()) {
    throw ArgumentError("ColumnParallelLinear: out_features is " + std::to_string(out_) + ", fewer than the " +
                        std::to_string(communicator_->size()) + " ranks to split it between");
  }
  const auto [first, last] = units();
  at::NoGradGuard no_grad;
  weight = register_parameter("weight", full->weight.narrow(0, first, last - first).clone());
  if (full->bias.defined()) bias = register_parameter("bias", full->bias.narrow(0, first, last - first).clone());
}

at::Tensor ColumnParallelLinearImpl::forward(const at::Tensor& x) {
  if (x.dim() < 1 || x.size(-1) != in_) {
    throw ArgumentError("ColumnParallelLinear::forward: x must be [*, " + std::to_string(in_) + "], got " +
                        c10::str(x.sizes()));
  }
  if (!x.device().is_cpu()) {
    throw ArgumentError("ColumnParallelLinear::forward: x must be on the CPU, got " + x.device().str());
  }
  const at::Tensor replicated = CopyToRanks::apply(x, communicator_);
  return GatherColumns::apply(at::linear(replicated, weight, bias), out_, communicator_);
}

}  // namespace variate::deep
