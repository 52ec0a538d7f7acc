#pragma once
/// What AmortizedFit trains: a deep model's per-row ELBO over its training (and held-out)
/// rows, differentiable in the weights of its networks. A model in the language
/// (AmortizedModel) and one written in C++ (AmortizedProgram) are both one.

#include <cstdint>

#include <ATen/core/Tensor.h>
#include <torch/nn/module.h>

namespace variate::deep {

class AmortizedObjective {
 public:
  virtual ~AmortizedObjective() = default;
  /// The training rows (N).
  virtual int64_t rows() const = 0;
  /// The held-out rows (0: none).
  virtual int64_t heldout_rows() const = 0;
  /// The standard-normal draws one row needs (its latents' sizes).
  virtual int64_t noise_width() const = 0;
  /// Of the weights, the noise and the ELBO.
  virtual at::ScalarType dtype() const = 0;
  /// The weights a fit trains are networks().parameters().
  virtual torch::nn::Module& networks() = 0;
  /// The ELBO of each of `rows` (int64 indices into the training or held-out rows) with
  /// noise [B, noise_width()]: [B], differentiable in the weights.
  virtual at::Tensor row_elbo(const at::Tensor& rows, const at::Tensor& noise, bool heldout) const = 0;
};

}  // namespace variate::deep
