#pragma once
/// Variational programs, as in Edward2 (Tran et al. 2018, Sec. 3): a variational family
/// is itself a program that creates random variables, one for each latent variable of
/// the model and named like it, whose distribution arguments are computed from trainable
/// tensors. Inference runs the program under tracers to draw from it and score it (see
/// elbo.h); ADVI's Gaussian families are programs of this kind
/// (variational_meanfield.h, variational_fullrank.h).
///
/// Each random variable of a program lives on one of two scales:
/// - the unconstrained scale: a distribution on the real line (a Normal, a MultiNormal),
///   with the shape of the model variable's unconstrained value (ParameterInfo::
///   unconstrained_shape, or that many entries as one vector). Its draws are mapped onto
///   the model's support by the model's bijector, as in ADVI;
/// - the model's own scale: a distribution with the same support as the model variable
///   (a LogNormal for a positive scale) and the model variable's shape.
/// Draws must be reparameterized (differentiable in the trainable tensors): the samplers
/// of Normal, MultiNormal and LogNormal are.
///
///   at::Tensor loc = at::zeros({3}, at::kDouble).requires_grad_();
///   at::Tensor log_scale = at::zeros({3}, at::kDouble).requires_grad_();
///   VariationalProgram q([=] { Normal("beta", loc, at::exp(log_scale)); }, {loc, log_scale});

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

namespace variate {

/// A variational family: a program of random variables and the trainable tensors it reads.
/// Optimizers change the tensors in place, so the program must read them each time it runs
/// (capture the tensors, which share storage, not values computed from them).
class VariationalFamily {
 public:
  virtual ~VariationalFamily() = default;

  /// Creates the family's random variables through the active tracers.
  virtual void program() const = 0;
  /// The trainable tensors: floating-point leaves with requires_grad set.
  virtual std::vector<at::Tensor> parameters() const = 0;
  /// The approximation's mean on the unconstrained scale ([d], in the order of the model's
  /// ParameterLayout) when known in closed form; nullopt, and callers estimate it from
  /// draws, otherwise.
  virtual std::optional<at::Tensor> unconstrained_mean() const { return std::nullopt; }
  /// The scale each parameter is known to, one tensor per parameter (broadcasting against
  /// it), or none: ADVI's Adam steps a coordinate of scale s by about s near the optimum
  /// (see Adam::step). Adam alone moves every coordinate by about its learning rate, so a
  /// location whose posterior sd is 0.001 would jitter at a hundred times that; the
  /// built-in Gaussians give q's standard deviations for their means and 1 for the rest.
  virtual std::vector<at::Tensor> step_scales() const { return {}; }
  /// "meanfield", "fullrank"; "program" for a hand-written one.
  virtual std::string name() const { return "program"; }
};

/// A family written by hand as a callable and the tensors it trains (with no step scales:
/// derive from VariationalFamily to give them).
class VariationalProgram : public VariationalFamily {
 public:
  /// @throws ArgumentError if `program` is empty or a parameter is not a floating-point
  /// leaf tensor with requires_grad set (naming its index).
  VariationalProgram(std::function<void()> program, std::vector<at::Tensor> parameters);

  void program() const override { program_(); }
  std::vector<at::Tensor> parameters() const override { return parameters_; }

 private:
  std::function<void()> program_;
  std::vector<at::Tensor> parameters_;
};

/// Copies of the current values of `family`'s parameters.
std::vector<at::Tensor> snapshot_parameters(const VariationalFamily& family);
/// Writes values taken by snapshot_parameters() back into the parameters, in place.
/// @throws ArgumentError if the number or shapes differ.
void restore_parameters(const VariationalFamily& family, const std::vector<at::Tensor>& values);

}  // namespace variate
