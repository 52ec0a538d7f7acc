#pragma once
/// A deep model bound to its data: a checked model with networks (`h = mlp(...)`) and
/// guides (`guide z ~ Normal(...)`), compiled for amortized variational inference. Each
/// observation (row) has its own latent values, drawn from a guide computed from that
/// row's data, so the ELBO is a sum over rows and a minibatch of rows estimates it:
///
///   ELBO ≈ N / B · Σ_{rows b of the batch} E_q(z_b | x_b)[log p(x_b | z_b) + log p(z_b) - log q(z_b | x_b)]
///
/// with one reparameterized draw z_b = loc_b + scale_b · ε_b per row. When a prior and its
/// guide are both Normal, log p(z) - log q(z) is replaced by its expectation, -KL (as the
/// reference VAE and Pyro's TraceMeanField_ELBO do): the same ELBO, a less noisy gradient.
///
/// The networks' weights (torch::nn modules under `networks()`) are the parameters the
/// fit learns. The row axis is the first size of the guided latents (`z[N, 20]`: N); data
/// declared with that first size is cut into batches, other data is used whole.
///
///   AmortizedModel vae(checked, train, {});
///   at::Tensor elbo = vae.row_elbo(rows, noise);   // [B], differentiable in the weights

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>
#include <torch/nn/module.h>

#include "engine/core/data.h"
#include "engine/core/shape.h"
#include "engine/model/checker.h"
#include "engine/deep/amortized_objective.h"
#include "engine/deep/network.h"

namespace variate::deep {

struct AmortizedOptions {
  /// The dtype of the data and the networks: float32 (as deep-learning code runs), or
  /// float64.
  at::ScalarType dtype = at::kFloat;
  /// Seeds the networks' initial weights.
  uint64_t seed = 1;
};

/// A network of the model: its statement's name and its layers.
struct NetworkInfo {
  std::string name;
  MlpSpec spec;
};

/// A latent variable with one value per row, and its guide.
struct LatentInfo {
  std::string name;
  /// One row's shape ([20] for z[N, 20]).
  Shape row_shape;
  /// Whether -KL(guide || prior) is computed in closed form (both Normal).
  bool analytic_kl = false;
};

class AmortizedModel : public AmortizedObjective {
 public:
  /// Binds `data` (the training set), checks every shape by running the model on a few
  /// rows, and builds the networks.
  /// @throws ModelError located in the model text: a model that is not amortizable (a
  /// latent without a guide, a guided latent without a row axis, a non-Normal guide's
  /// family where a Normal is needed), a network applied to something that is not a
  /// matrix, layer widths that do not fit what reads them, data outside a likelihood's
  /// support; ArgumentError for a dtype other than float32 or float64.
  AmortizedModel(std::shared_ptr<const model::CheckedModel> checked, const Data& data,
                 const AmortizedOptions& options = {});
  ~AmortizedModel() override;
  AmortizedModel(AmortizedModel&&) noexcept;
  AmortizedModel& operator=(AmortizedModel&&) noexcept;

  const model::CheckedModel& checked() const;
  const AmortizedOptions& options() const;
  /// The rows of the training data (N).
  int64_t rows() const override;
  at::ScalarType dtype() const override { return options().dtype; }
  /// The size name of the row axis ("N").
  const std::string& row_axis() const;
  const std::vector<NetworkInfo>& network_infos() const;
  const std::vector<LatentInfo>& latents() const;
  /// The width of the noise one row needs: the sum of its latents' sizes.
  int64_t noise_width() const override;

  /// Every network, registered under its name: parameters() are the weights a fit
  /// trains, named "decoder.0.weight", ...; save/load write them.
  torch::nn::Module& networks() override;
  const torch::nn::Module& networks() const;

  /// Another data set of the same model (held-out rows): its own row count, the same
  /// networks. @throws ModelError as the constructor does for its data.
  void bind_heldout(const Data& data);
  bool has_heldout() const;
  int64_t heldout_rows() const override;

  /// The ELBO of each of `rows` (int64 indices into the training rows, or the held-out
  /// rows with `heldout`), given standard-normal noise [B, noise_width()]: [B] in the
  /// model's dtype, differentiable in the weights. Validation is off (the data was
  /// checked when bound).
  at::Tensor row_elbo(const at::Tensor& rows, const at::Tensor& noise, bool heldout = false) const override;

  /// What an image panel shows for a batch of rows: the observed variable's mean (for a
  /// Bernoulli, the probabilities) given the guide's mean of the latents (a
  /// reconstruction), and given latents drawn from the prior (`prior_noise` [B,
  /// noise_width()] of standard-normal draws, the prior's loc + scale · noise).
  /// For the first observed variable; [B, *its row shape].
  at::Tensor reconstruct(const at::Tensor& rows, bool heldout = false) const;
  at::Tensor sample_prior(const at::Tensor& prior_noise) const;
  /// The guide's mean of the first latent for `rows`: [B, *row_shape] (a 2-D latent space
  /// plotted coloured by label).
  at::Tensor encode(const at::Tensor& rows, bool heldout = false) const;
  /// The name of the observed variable reconstruct() returns, and its row shape.
  const std::string& observed_name() const;
  const Shape& observed_row_shape() const;

  struct State;

 private:
  std::unique_ptr<State> state_;
};

}  // namespace variate::deep
