#include "engine/distributions/logistic.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"
#include "engine/distributions/standard_draws.h"

namespace variate {
namespace distributions {

Logistic::Logistic(at::Tensor mu, at::Tensor sigma) {
  auto p = broadcast_parameters("Logistic", {std::move(mu), std::move(sigma)});
  check_finite("Logistic", "mu", p[0]);
  check_positive("Logistic", "sigma", p[1]);
  mu_ = p[0];
  sigma_ = p[1];
  set_shapes(mu_.sizes().vec());
}

at::Tensor Logistic::log_prob(const at::Tensor& value) const {
  const at::Tensor x = as_floating(value, mu_);
  // The density is symmetric in z; written in |z| it never computes exp of a large
  // positive number, and log1p keeps full precision in the tails.
  const at::Tensor abs_z = at::abs((x - mu_) / sigma_);
  return -abs_z - 2.0 * at::log1p(at::exp(-abs_z)) - at::log(sigma_);
}

at::Tensor Logistic::sample(const Shape& sample_shape, at::Generator generator) const {
  // Inverse CDF logit(u), u in (0, 1).
  const at::Tensor u = standard_uniform(extended_shape(sample_shape), generator, mu_.options());
  return mu_ + sigma_ * (at::log(u) - at::log1p(-u));  // reparameterized in mu and sigma
}

// F(x) = 1 / (1 + exp(-z)): log F = -softplus(-z), log(1 - F) = -softplus(z).
at::Tensor Logistic::log_cdf(const at::Tensor& x) const {
  return -at::softplus(-(as_floating(x, mu_) - mu_) / sigma_);
}

at::Tensor Logistic::log_ccdf(const at::Tensor& x) const {
  return -at::softplus((as_floating(x, mu_) - mu_) / sigma_);
}

}  // namespace distributions

RandomVariable Logistic(std::string name, const TensorArg& mu, const TensorArg& sigma,
                        Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::Logistic>(mu, sigma),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
