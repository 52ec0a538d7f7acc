#pragma once
/// LKJCorrCholesky(K, eta): the LKJ distribution over correlation matrices, expressed on
/// their lower Cholesky factors (Stan's lkj_corr_cholesky). Lewandowski, Kurowicka & Joe
/// (2009), "Generating random correlation matrices based on vines and extended onion
/// method", J. Multivariate Analysis 100: eq. 16 (normalizing constant), Sec. 3.2 (onion
/// method, used by the sampler).

#include <cstdint>

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

/// The density of R = L L^T is proportional to det(R)^(eta - 1); the density of L is that
/// times the Jacobian of L -> R, over the strictly lower-triangular entries of L:
///   log p(L) = sum_{i=2..K} (K - i + 2 eta - 2) log L_ii - log c_K(eta)   (1-based i).
/// eta has shape [batch...]; a value has shape [batch..., K, K] (event_shape [K, K]).
class LKJCorrCholesky : public Distribution {
 public:
  /// @throws ArgumentError if K < 2 or eta is not positive and finite.
  LKJCorrCholesky(int64_t dimension, at::Tensor eta);

  std::string name() const override { return "LKJCorrCholesky"; }
  /// @throws ArgumentError if the value's trailing shape is not [K, K].
  at::Tensor log_prob(const at::Tensor& value) const override;
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::cholesky_corr(); }

  int64_t dimension() const { return dimension_; }
  const at::Tensor& eta() const { return eta_; }
  /// log c_K(eta), the integral of det(R)^(eta - 1) over K x K correlation matrices.
  const at::Tensor& log_normalizer() const { return log_normalizer_; }

 private:
  int64_t dimension_;
  at::Tensor eta_;
  at::Tensor log_normalizer_;
};

}  // namespace distributions

/// An LKJCorrCholesky random variable over K x K Cholesky factors:
///
///   auto L_Omega = LKJCorrCholesky("L_Omega", 4, 2.0);
RandomVariable LKJCorrCholesky(std::string name, int64_t K, const TensorArg& eta,
                               Shape sample_shape = {});

}  // namespace variate
