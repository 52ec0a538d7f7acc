#include "engine/distributions/normal.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"

namespace variate {
namespace distributions {

Normal::Normal(at::Tensor mu, at::Tensor sigma) {
  auto p = broadcast_parameters("Normal", {std::move(mu), std::move(sigma)});
  check_finite("Normal", "mu", p[0]);
  check_positive("Normal", "sigma", p[1]);
  mu_ = p[0];
  sigma_ = p[1];
  set_shapes(mu_.sizes().vec());
}

at::Tensor Normal::log_prob(const at::Tensor& value) const {
  const at::Tensor x = as_floating(value, mu_);
  const at::Tensor z = (x - mu_) / sigma_;
  return -0.5 * z * z - at::log(sigma_) - kHalfLog2Pi;
}

at::Tensor Normal::sample(const Shape& sample_shape, at::Generator generator) const {
  const at::Tensor noise =
      at::normal(0.0, 1.0, extended_shape(sample_shape), generator, mu_.options());
  return mu_ + sigma_ * noise;  // reparameterized: differentiable in mu and sigma
}

at::Tensor Normal::log_cdf(const at::Tensor& x) const {
  return at::special_log_ndtr((as_floating(x, mu_) - mu_) / sigma_);
}

at::Tensor Normal::log_ccdf(const at::Tensor& x) const {
  return at::special_log_ndtr((mu_ - as_floating(x, mu_)) / sigma_);  // P(X > x) = Phi(-z)
}

}  // namespace distributions

RandomVariable Normal(std::string name, const TensorArg& mu, const TensorArg& sigma,
                      Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::Normal>(mu, sigma),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
