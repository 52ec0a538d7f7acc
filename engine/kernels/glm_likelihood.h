#pragma once
/// The likelihood of a whole observed vector y [N] under a GLM, y ~ Family(alpha + X beta
/// [, sigma]), as one distribution with event shape [N] (as Stan's *_glm_lpmf treat y):
/// log_prob runs the fused kernel and reduces the rows itself. The compiled model puts it
/// in place of the elementwise family when it recognises the shape (model/fused_likelihood.h);
/// tracers see an ordinary observed random variable.

#include <memory>

#include "engine/core/random_variable.h"
#include "engine/core/distribution.h"
#include "engine/kernels/glm_log_likelihood.h"

namespace variate::kernels {

class GlmLikelihood : public distributions::Distribution {
 public:
  /// Arguments as glm_log_likelihood's. Batch shape [B] when any argument is batched.
  /// @throws ArgumentError for shapes that do not fit the data.
  GlmLikelihood(std::shared_ptr<const GlmData> data, at::Tensor alpha, at::Tensor beta,
                at::Tensor sigma = {});

  /// "Normal", "Bernoulli", "Poisson" or "Binomial".
  std::string name() const override;
  /// The summed log likelihood of y [N]: 0-dim, or [B]. For the data's own outcome the
  /// prepared layout is used; another y is laid out first. Values outside the family's
  /// support are not masked (bound data was checked against it).
  at::Tensor log_prob(const at::Tensor& value) const override;
  /// Draws of y from the elementwise family at eta = alpha + X beta.
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override;

  const GlmData& data() const { return *data_; }

 private:
  DistributionPtr elementwise() const;  // the family at eta, for sampling

  std::shared_ptr<const GlmData> data_;
  at::Tensor alpha_;
  at::Tensor beta_;
  at::Tensor sigma_;
};

}  // namespace variate::kernels
