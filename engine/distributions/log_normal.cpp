#include "engine/distributions/log_normal.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"
#include "engine/distributions/standard_draws.h"

namespace variate {
namespace distributions {

LogNormal::LogNormal(at::Tensor mu, at::Tensor sigma) {
  auto p = broadcast_parameters("LogNormal", {std::move(mu), std::move(sigma)});
  check_finite("LogNormal", "mu", p[0]);
  check_positive("LogNormal", "sigma", p[1]);
  mu_ = p[0];
  sigma_ = p[1];
  set_shapes(mu_.sizes().vec());
}

at::Tensor LogNormal::log_prob(const at::Tensor& value) const {
  const at::Tensor x = as_floating(value, mu_);
  const at::Tensor inside = (x > 0) & at::isfinite(x);
  // The formula runs on 1 outside the support, so nothing infinite reaches the
  // gradient of the masked entries.
  const at::Tensor log_x = at::log(at::where(inside, x, 1.0));
  const at::Tensor z = (log_x - mu_) / sigma_;
  return mask_outside_support(-0.5 * z * z - at::log(sigma_) - kHalfLog2Pi - log_x, inside);
}

at::Tensor LogNormal::sample(const Shape& sample_shape, at::Generator generator) const {
  const at::Tensor noise =
      at::normal(0.0, 1.0, extended_shape(sample_shape), generator, mu_.options());
  return clamp_positive(at::exp(mu_ + sigma_ * noise));  // reparameterized in mu and sigma
}

}  // namespace distributions

RandomVariable LogNormal(std::string name, const TensorArg& mu, const TensorArg& sigma,
                         Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::LogNormal>(mu, sigma),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
