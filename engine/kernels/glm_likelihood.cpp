#include "engine/kernels/glm_likelihood.h"

#include <vector>

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tensor_arg.h"
#include "engine/distributions/bernoulli.h"
#include "engine/distributions/binomial.h"
#include "engine/distributions/normal.h"
#include "engine/distributions/poisson.h"

namespace variate::kernels {

GlmLikelihood::GlmLikelihood(std::shared_ptr<const GlmData> data, at::Tensor alpha, at::Tensor beta,
                             at::Tensor sigma)
    : data_(std::move(data)), alpha_(std::move(alpha)), beta_(std::move(beta)), sigma_(std::move(sigma)) {
  if (!data_) throw ArgumentError("GlmLikelihood: argument 'data' is null");
  Shape batch;
  if (beta_.dim() == 2) batch = {beta_.size(0)};
  if (alpha_.defined() && alpha_.dim() == 1) batch = {alpha_.size(0)};
  if (sigma_.defined() && sigma_.dim() == 1) batch = {sigma_.size(0)};
  set_shapes(batch, {data_->rows()});
}

std::string GlmLikelihood::name() const {
  switch (data_->family) {
    case GlmFamily::normal: return "Normal";
    case GlmFamily::bernoulli_logit: return "Bernoulli";
    case GlmFamily::poisson_log: return "Poisson";
    case GlmFamily::binomial_logit: return "Binomial";
  }
  return "";
}

at::Tensor GlmLikelihood::log_prob(const at::Tensor& value) const {
  if (value.is_same(data_->outcome)) return glm_log_likelihood(data_, alpha_, beta_, sigma_);
  const int64_t N = data_->rows();
  if (value.dim() < 1 || value.size(-1) != N || (!batch_shape().empty() && value.dim() != 1)) {
    throw ArgumentError("GlmLikelihood: a value must have shape [" + std::to_string(N) +
                        "] (or [..., " + std::to_string(N) + "] for one point), got " +
                        to_string(value.sizes()));
  }
  // Each leading index is another outcome vector laid out on its own.
  const at::Tensor rows = value.reshape({-1, N});
  std::vector<at::Tensor> results;
  for (int64_t i = 0; i < rows.size(0); ++i) {
    const auto other = std::make_shared<const GlmData>(data_->with_outcome(rows[i]));
    results.push_back(glm_log_likelihood(other, alpha_, beta_, sigma_));
  }
  if (value.dim() == 1) return results[0];
  const Shape leading(value.sizes().begin(), value.sizes().end() - 1);
  return at::stack(results).reshape(leading);
}

DistributionPtr GlmLikelihood::elementwise() const {
  const at::Tensor X = data_->x_columns.t();
  const at::Tensor beta = beta_.to(X.scalar_type());
  at::Tensor eta = beta.dim() == 1 ? at::mv(X, beta) : at::matmul(beta, X.t());  // [N] or [B, N]
  if (alpha_.defined()) eta = eta + (alpha_.dim() == 1 ? alpha_.unsqueeze(1) : alpha_).to(eta.scalar_type());
  namespace d = distributions;
  switch (data_->family) {
    case GlmFamily::normal: {
      const at::Tensor sigma = sigma_.dim() == 1 ? sigma_.unsqueeze(1) : sigma_;
      return std::make_shared<d::Normal>(eta, sigma.to(eta.scalar_type()));
    }
    case GlmFamily::bernoulli_logit: return std::make_shared<d::Bernoulli>(Logits{eta});
    case GlmFamily::poisson_log: return std::make_shared<d::Poisson>(LogRate{eta});
    case GlmFamily::binomial_logit: return std::make_shared<d::Binomial>(data_->trials, Logits{eta});
  }
  return nullptr;
}

at::Tensor GlmLikelihood::sample(const Shape& sample_shape, at::Generator generator) const {
  return elementwise()->sample(sample_shape, std::move(generator));
}

Support GlmLikelihood::support() const {
  switch (data_->family) {
    case GlmFamily::normal: return Support::real();
    case GlmFamily::bernoulli_logit: return Support::boolean();
    case GlmFamily::poisson_log: return Support::nonnegative_integer();
    case GlmFamily::binomial_logit:
      return Support::integer_interval(at::zeros({}, data_->trials.options()), data_->trials);
  }
  return Support::real();
}

}  // namespace variate::kernels
