#include "engine/distributions/weibull.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"
#include "engine/distributions/standard_draws.h"

namespace variate {
namespace distributions {

Weibull::Weibull(at::Tensor alpha, at::Tensor sigma) {
  auto p = broadcast_parameters("Weibull", {std::move(alpha), std::move(sigma)});
  check_positive("Weibull", "alpha", p[0]);
  check_positive("Weibull", "sigma", p[1]);
  alpha_ = p[0];
  sigma_ = p[1];
  set_shapes(alpha_.sizes().vec());
}

at::Tensor Weibull::log_prob(const at::Tensor& value) const {
  const at::Tensor x = as_floating(value, alpha_);
  const at::Tensor inside = (x >= 0) & at::isfinite(x);
  // The formula runs on 1 outside the support, so nothing infinite reaches the
  // gradient of the masked entries. xlogy makes (alpha - 1) log(x / sigma) zero at
  // alpha = 1, x = 0, where Weibull(1, sigma) is Exponential(1 / sigma).
  const at::Tensor scaled = at::where(inside, x, 1.0) / sigma_;
  const at::Tensor log_density = at::log(alpha_) - at::log(sigma_) +
                                 at::xlogy(alpha_ - 1.0, scaled) - at::pow(scaled, alpha_);
  return mask_outside_support(log_density, inside);
}

at::Tensor Weibull::sample(const Shape& sample_shape, at::Generator generator) const {
  // Inverse CDF: sigma E^(1 / alpha), E ~ Exponential(1); differentiable in both.
  const at::Tensor noise =
      standard_exponential(extended_shape(sample_shape), generator, alpha_.options());
  return clamp_positive(sigma_ * at::pow(noise, 1.0 / alpha_));
}

}  // namespace distributions

RandomVariable Weibull(std::string name, const TensorArg& alpha, const TensorArg& sigma,
                       Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::Weibull>(alpha, sigma),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
