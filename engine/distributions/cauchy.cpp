#include "engine/distributions/cauchy.h"

#include <cmath>

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"
#include "engine/distributions/standard_draws.h"

namespace variate {
namespace distributions {

Cauchy::Cauchy(at::Tensor mu, at::Tensor sigma) {
  auto p = broadcast_parameters("Cauchy", {std::move(mu), std::move(sigma)});
  check_finite("Cauchy", "mu", p[0]);
  check_positive("Cauchy", "sigma", p[1]);
  mu_ = p[0];
  sigma_ = p[1];
  set_shapes(mu_.sizes().vec());
}

at::Tensor Cauchy::log_prob(const at::Tensor& value) const {
  const at::Tensor x = as_floating(value, mu_);
  const at::Tensor z = (x - mu_) / sigma_;
  return -at::log1p(z * z) - at::log(sigma_) - kLogPi;
}

at::Tensor Cauchy::sample(const Shape& sample_shape, at::Generator generator) const {
  // Inverse CDF tan(pi (u - 1/2)) in double: double(pi) / 2 < pi / 2, so the angle never
  // rounds past the pole and flips the sign of a far-tail draw (float's pi would).
  const at::Tensor u = standard_uniform(extended_shape(sample_shape), generator,
                                        mu_.options().dtype(at::kDouble));
  const at::Tensor noise = at::tan(M_PI * (u - 0.5)).to(mu_.scalar_type());
  return mu_ + sigma_ * noise;  // reparameterized: differentiable in mu and sigma
}

// F(x) = 1/2 + atan(z) / pi; the upper tail as 1/2 - atan(z) / pi keeps its precision.
at::Tensor Cauchy::log_cdf(const at::Tensor& x) const {
  return at::log(0.5 + at::atan((as_floating(x, mu_) - mu_) / sigma_) / M_PI);
}

at::Tensor Cauchy::log_ccdf(const at::Tensor& x) const {
  return at::log(0.5 - at::atan((as_floating(x, mu_) - mu_) / sigma_) / M_PI);
}

}  // namespace distributions

RandomVariable Cauchy(std::string name, const TensorArg& mu, const TensorArg& sigma,
                      Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::Cauchy>(mu, sigma),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
