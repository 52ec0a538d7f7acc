#pragma once
/// A deep model written in C++, as Edward2 writes one: a model program and a guide program
/// over a batch of rows, each a plain function that creates named random variables and
/// may call any torch::nn module. The ELBO is found by tracing them: the guide runs under
/// a tracer that gives each of its variables a reparameterized draw (loc + scale · noise),
/// then the model runs under one that gives its latents those draws and its observed
/// variables the batch's data, and adds each variable's log density row by row.
///
///   struct Vae : torch::nn::Module {
///     torch::nn::Sequential encoder{...}, decoder{...};   // registered with register_module
///   } vae;
///   deep::AmortizedProgram program(
///       [&](const deep::Batch& b) {
///         auto z = vt::Normal("z", 0.0, 1.0, {b.size(), 20});
///         vt::Bernoulli("x", vt::Logits{vae.decoder->forward(z)});   // "x" is in the data
///       },
///       [&](const deep::Batch& b) {
///         const at::Tensor h = vae.encoder->forward(b["x"]);
///         vt::Normal("z", h.slice(1, 0, 20), at::exp(h.slice(1, 20, 40)));
///       },
///       vae, train);
///   deep::AmortizedFit(program, options).run();
///
/// Each latent of the model has a Normal variable of the same name in the guide, with one
/// value per row ([B, ...]); when the model's is Normal too, the KL between them is taken
/// in closed form (as AmortizedModel does). Data values whose first size is the number of
/// rows are cut into batches; the others reach every batch whole.

#include <functional>
#include <utility>
#include <vector>
#include <memory>
#include <string>

#include "engine/core/data.h"
#include "engine/core/shape.h"
#include "engine/deep/amortized_objective.h"

namespace variate::deep {

/// The rows of one batch: each row-wise data value cut to them, the rest whole.
class Batch {
 public:
  Batch(Data data, int64_t size) : data_(std::move(data)), size_(size) {}
  int64_t size() const { return size_; }
  /// @throws ArgumentError "data has no variable 'x'".
  const at::Tensor& operator[](const std::string& name) const { return data_[name]; }
  const Data& data() const { return data_; }

 private:
  Data data_;
  int64_t size_;
};

using BatchProgram = std::function<void(const Batch&)>;

class AmortizedProgram : public AmortizedObjective {
 public:
  /// `networks`: the module whose parameters are the weights (it must outlive this).
  /// `train`: the training data; its rows are the first size of `row_variable`'s value
  /// (by default the only value with dimensions). Runs both programs on two rows to learn
  /// the latents' shapes.
  /// @throws ArgumentError naming the variable: a model latent without a guide, a guide
  /// variable that is not Normal or not one value per row, a guide variable the model
  /// does not have.
  AmortizedProgram(BatchProgram model, BatchProgram guide, torch::nn::Module& networks, Data train,
                   std::string row_variable = "", at::ScalarType dtype = at::kFloat);
  ~AmortizedProgram() override;

  /// Held-out rows of the same variables.
  void set_heldout(Data heldout);

  int64_t rows() const override;
  int64_t heldout_rows() const override;
  int64_t noise_width() const override;
  at::ScalarType dtype() const override;
  torch::nn::Module& networks() override;
  at::Tensor row_elbo(const at::Tensor& rows, const at::Tensor& noise, bool heldout) const override;

  /// The guided latents in the order their noise columns come, with one row's shape.
  const std::vector<std::pair<std::string, Shape>>& latents() const;

  struct State;

 private:
  std::unique_ptr<State> state_;
};

}  // namespace variate::deep
