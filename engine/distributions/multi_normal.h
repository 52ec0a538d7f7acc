#pragma once
/// MultiNormal(mu, Sigma) and MultiNormal(mu, scale_tril(L)): the multivariate normal,
/// Stan's multi_normal and multi_normal_cholesky.

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

/// mu has shape [batch..., K] (or broadcasts to it), the covariance [batch..., K, K]; a
/// draw is a vector of K entries (event_shape [K]). Internally the density and the
/// sampler work with the lower Cholesky factor L of the covariance (Sigma = L L^T).
class MultiNormal : public Distribution {
 public:
  /// @throws ArgumentError if Sigma is not symmetric positive definite, its size does not
  /// match mu's last dimension, or mu is not finite.
  MultiNormal(at::Tensor mu, at::Tensor covariance);
  /// @throws ArgumentError if L is not lower triangular with a positive diagonal, or the
  /// sizes do not match.
  MultiNormal(at::Tensor mu, ScaleTril scale_tril);

  std::string name() const override { return "MultiNormal"; }
  /// @throws ArgumentError if the value does not end in K entries.
  at::Tensor log_prob(const at::Tensor& value) const override;
  /// mu + L z with z standard normal: reparameterized in mu and L.
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::real(); }

  /// Shape [batch..., K].
  const at::Tensor& mu() const { return mu_; }
  /// Shape [..., K, K], broadcastable to [batch..., K, K].
  const at::Tensor& scale_tril() const { return scale_tril_; }
  at::Tensor covariance() const;

 private:
  void initialize(at::Tensor mu, at::Tensor matrix, const char* matrix_name);

  at::Tensor mu_;
  at::Tensor scale_tril_;
};

}  // namespace distributions

/// A MultiNormal random variable with covariance `Sigma`; `sample_shape` iid copies.
RandomVariable MultiNormal(std::string name, const TensorArg& mu, const TensorArg& Sigma,
                           Shape sample_shape = {});

/// A MultiNormal random variable with the Cholesky factor of its covariance:
///
///   auto x = MultiNormal("x", mu, scale_tril(L));
RandomVariable MultiNormal(std::string name, const TensorArg& mu, const ScaleTril& scale_tril,
                           Shape sample_shape = {});

}  // namespace variate
