#pragma once
/// Adam over one flat buffer of weights (every network's parameters as views into it):
/// torch::optim::Adam's update (no weight decay, no AMSGrad) in one pass per step, where
/// torch::optim::Adam makes six over each parameter tensor — on the VAE's 652,824 weights
/// the step costs about as much as half a batch's forward and backward pass otherwise.
///
///   FlatAdam adam(weights, AdamOptions().learning_rate(1e-3));
///   adam.step(gradients);   // weights -= lr * m_hat / (sqrt(v_hat) + eps), in place

#include <vector>

#include <ATen/core/Tensor.h>

#include "engine/vi/adam.h"

namespace torch::serialize {
class InputArchive;
class OutputArchive;
}  // namespace torch::serialize

namespace variate::deep {

class FlatAdam {
 public:
  /// `weights`: a contiguous CPU float32 or float64 vector, updated in place. The moments
  /// live in `first_moment` and `second_moment` when given (views into memory another
  /// process shares), else in zeroed tensors of their own.
  /// @throws ArgumentError for another kind of tensor, or moments of another size.
  FlatAdam(at::Tensor weights, AdamOptions options, at::Tensor first_moment = {}, at::Tensor second_moment = {});

  /// `gradients`: at least as long as the weights (the first weights.numel() are read).
  void step(const at::Tensor& gradients);
  /// The same step on the sum of `parts` (added in their order, element by element, in
  /// the same pass: ranks' gradient slots in shared memory).
  void step_on_sum(const std::vector<at::Tensor>& parts);
  long steps() const { return steps_; }
  void set_steps(long steps) { steps_ = steps; }
  const AdamOptions& options() const { return options_; }

  /// The moments and the step count.
  void save(torch::serialize::OutputArchive& archive) const;
  /// @throws ArgumentError when the archive holds moments of another size.
  void load(torch::serialize::InputArchive& archive);

 private:
  at::Tensor weights_;
  AdamOptions options_;
  at::Tensor first_moment_;
  at::Tensor second_moment_;
  long steps_ = 0;
};

}  // namespace variate::deep
