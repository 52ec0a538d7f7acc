#include "engine/distributions/exponential.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"
#include "engine/distributions/standard_draws.h"

namespace variate {
namespace distributions {

Exponential::Exponential(at::Tensor beta) {
  auto p = broadcast_parameters("Exponential", {std::move(beta)});
  check_positive("Exponential", "beta", p[0]);
  beta_ = p[0];
  set_shapes(beta_.sizes().vec());
}

at::Tensor Exponential::log_prob(const at::Tensor& value) const {
  const at::Tensor x = as_floating(value, beta_);
  const at::Tensor inside = (x >= 0) & at::isfinite(x);
  // The formula runs on 1 outside the support, so nothing infinite reaches the
  // gradient of the masked entries.
  const at::Tensor safe = at::where(inside, x, 1.0);
  return mask_outside_support(at::log(beta_) - beta_ * safe, inside);
}

at::Tensor Exponential::sample(const Shape& sample_shape, at::Generator generator) const {
  const at::Tensor noise =
      standard_exponential(extended_shape(sample_shape), generator, beta_.options());
  return clamp_positive(noise / beta_);  // reparameterized in beta
}

// F(x) = 1 - exp(-beta x) for x >= 0: log F = log(-expm1(-beta x)), log(1 - F) = -beta x.
at::Tensor Exponential::log_cdf(const at::Tensor& x) const {
  const at::Tensor positive = at::clamp_min(as_floating(x, beta_), 0.0);
  return at::log(-at::expm1(-beta_ * positive));
}

at::Tensor Exponential::log_ccdf(const at::Tensor& x) const {
  return -beta_ * at::clamp_min(as_floating(x, beta_), 0.0);
}

}  // namespace distributions

RandomVariable Exponential(std::string name, const TensorArg& beta, Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::Exponential>(beta),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
