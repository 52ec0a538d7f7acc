#pragma once
/// The baseline the engine is measured against: the logistic regression's log density
/// written by hand in LibTorch and differentiated by autograd, as a careful user would
/// write it without Variate.
///
///   log p(beta | X, y) = sum_n [y_n eta_n - softplus(eta_n)] + sum_d log Normal(beta_d | 0, 1),
///   eta = X beta.

#include <utility>

#include <ATen/core/Tensor.h>

namespace variate::bench {

class TorchLogisticBaseline {
 public:
  /// X is [N, D] in any layout and floating dtype; y ([N], 0/1) is converted to X's dtype
  /// once, here.
  TorchLogisticBaseline(at::Tensor X, const at::Tensor& y);

  /// The log density (0-dim, constants included) and its gradient at beta [D].
  std::pair<at::Tensor, at::Tensor> log_density_and_gradient(const at::Tensor& beta) const;

 private:
  at::Tensor X_;
  at::Tensor y_;
};

}  // namespace variate::bench
