#pragma once
/// ADVI's mean-field Gaussian family (Kucukelbir et al. 2017, Sec. 2.4): independent
/// normals on the model's unconstrained scale, zeta_i ~ Normal(mu_i, exp(omega_i)),
/// written as a variational program with one Normal random variable per latent variable
/// of the model.

#include <optional>

#include "engine/target/parameter_layout.h"
#include "engine/vi/variational_program.h"

namespace variate {

/// Copies share their parameters (as copies of a tensor share storage).
class MeanFieldGaussian : public VariationalFamily {
 public:
  /// mu = `mean` ([d], default zeros) and omega = 0 (unit scales), as Stan initializes it.
  /// @throws ArgumentError if `mean` does not have d entries.
  explicit MeanFieldGaussian(ParameterLayout layout, std::optional<at::Tensor> mean = std::nullopt);

  /// For each latent variable, Normal(name, mu[slice], exp(omega[slice])) with the
  /// variable's unconstrained shape.
  void program() const override;
  /// {mu, omega}.
  std::vector<at::Tensor> parameters() const override { return {mu_, omega_}; }
  std::optional<at::Tensor> unconstrained_mean() const override { return mu_.detach(); }
  /// {exp(omega), 1}: mu's steps are relative to q's standard deviations.
  std::vector<at::Tensor> step_scales() const override;
  std::string name() const override { return "meanfield"; }

  const ParameterLayout& layout() const { return layout_; }
  /// [d], trainable.
  const at::Tensor& mu() const { return mu_; }
  /// [d], trainable: the log standard deviations.
  const at::Tensor& omega() const { return omega_; }
  /// exp(omega), detached.
  at::Tensor scale() const;

 private:
  ParameterLayout layout_;
  at::Tensor mu_;
  at::Tensor omega_;
};

/// Creates Normal(name, mean[slice], scale[slice]) for each latent variable of `layout`,
/// with the variable's unconstrained shape: a diagonal Gaussian as a program.
void normal_blocks(const ParameterLayout& layout, const at::Tensor& mean, const at::Tensor& scale);

/// The [d] starting mean checked against a layout, or zeros; shared by the Gaussian families.
at::Tensor initial_mean(const char* family, const ParameterLayout& layout,
                        const std::optional<at::Tensor>& mean);

}  // namespace variate
