#include "engine/distributions/laplace.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"
#include "engine/distributions/standard_draws.h"

namespace variate {
namespace distributions {

Laplace::Laplace(at::Tensor mu, at::Tensor sigma) {
  auto p = broadcast_parameters("Laplace", {std::move(mu), std::move(sigma)});
  check_finite("Laplace", "mu", p[0]);
  check_positive("Laplace", "sigma", p[1]);
  mu_ = p[0];
  sigma_ = p[1];
  set_shapes(mu_.sizes().vec());
}

at::Tensor Laplace::log_prob(const at::Tensor& value) const {
  const at::Tensor x = as_floating(value, mu_);
  return -at::abs(x - mu_) / sigma_ - at::log(sigma_) - kLog2;
}

at::Tensor Laplace::sample(const Shape& sample_shape, at::Generator generator) const {
  // The difference of two Exponential(1) draws is standard Laplace; unlike the one-uniform
  // inverse CDF it never meets log(0).
  const Shape shape = extended_shape(sample_shape);
  const at::Tensor noise = standard_exponential(shape, generator, mu_.options()) -
                           standard_exponential(shape, generator, mu_.options());
  return mu_ + sigma_ * noise;  // reparameterized: differentiable in mu and sigma
}

}  // namespace distributions

RandomVariable Laplace(std::string name, const TensorArg& mu, const TensorArg& sigma,
                       Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::Laplace>(mu, sigma),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
