#include "torch_baseline.h"

#include <cmath>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/autograd.h>

namespace variate::bench {

TorchLogisticBaseline::TorchLogisticBaseline(at::Tensor X, const at::Tensor& y)
    : X_(std::move(X)), y_(y.to(X_.scalar_type())) {}

std::pair<at::Tensor, at::Tensor> TorchLogisticBaseline::log_density_and_gradient(
    const at::Tensor& beta) const {
  at::AutoGradMode enable(true);
  const at::Tensor b = beta.detach().to(X_.scalar_type()).requires_grad_(true);
  const at::Tensor eta = at::mv(X_, b);
  const at::Tensor likelihood = (y_ * eta - at::softplus(eta)).sum();
  const double log_normalizer = -0.5 * std::log(2 * M_PI) * static_cast<double>(b.numel());
  const at::Tensor prior = -0.5 * (b * b).sum() + log_normalizer;
  const at::Tensor lp = likelihood + prior;
  const auto gradient = torch::autograd::grad({lp}, {b});
  return {lp.detach(), gradient[0]};
}

}  // namespace variate::bench
