#pragma once
/// ADVI's full-rank Gaussian family (Kucukelbir et al. 2017, Sec. 2.5): zeta = mu + L eps
/// on the model's unconstrained scale with eps standard normal and L lower triangular.
///
/// As a variational program it is a chain of conditionals, one random variable per
/// latent variable of the model: block k (the entries of variable k) is
///   zeta_k ~ MultiNormal(mu_k + L[k, <k] eps_<k, scale_tril(L[k, k]))
/// (a Normal for a scalar), where eps_j = L[j, j]^-1 (zeta_j - its mean) is the noise of
/// the blocks before it. Their product is the joint Gaussian N(mu, L L^T), and the sum of
/// the blocks' closed-form entropies is its entropy.
///
/// Unlike Stan, which leaves L's diagonal unconstrained, the diagonal is exp(omega) so
/// that every block is a valid Cholesky factor (the same family, positive diagonal).

#include <optional>

#include "engine/target/parameter_layout.h"
#include "engine/vi/variational_program.h"

namespace variate {

/// Copies share their parameters (as copies of a tensor share storage).
class FullRankGaussian : public VariationalFamily {
 public:
  /// mu = `mean` ([d], default zeros) and L = I, as Stan initializes it.
  /// @throws ArgumentError if `mean` does not have d entries.
  explicit FullRankGaussian(ParameterLayout layout, std::optional<at::Tensor> mean = std::nullopt);

  void program() const override;
  /// {mu, lower, omega}: L = tril(lower, -1) + diag(exp(omega)). Entries of `lower` on
  /// and above the diagonal are unused (their gradient is zero).
  std::vector<at::Tensor> parameters() const override { return {mu_, lower_, omega_}; }
  std::optional<at::Tensor> unconstrained_mean() const override { return mu_.detach(); }
  /// {s, s as a column, 1} with s the marginal standard deviations sqrt(diag(L L^T)): mu
  /// and each row of L (in the units of its coordinate) move relative to that scale.
  std::vector<at::Tensor> step_scales() const override;
  std::string name() const override { return "fullrank"; }

  const ParameterLayout& layout() const { return layout_; }
  const at::Tensor& mu() const { return mu_; }
  /// L [d, d], differentiable in the parameters.
  at::Tensor scale_tril() const;
  /// L L^T, detached.
  at::Tensor covariance() const;

 private:
  ParameterLayout layout_;
  at::Tensor mu_;
  at::Tensor lower_;
  at::Tensor omega_;
};

/// Creates the chain of conditionals above for N(mean, L L^T), L = `scale_tril` [d, d]
/// lower triangular with a positive diagonal: a dense Gaussian as a program.
void multi_normal_blocks(const ParameterLayout& layout, const at::Tensor& mean, const at::Tensor& scale_tril);

}  // namespace variate
