#include "engine/distributions/poisson.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"

namespace variate {
namespace distributions {

Poisson::Poisson(at::Tensor lambda) {
  lambda_ = broadcast_parameters("Poisson", {std::move(lambda)})[0];
  check_nonnegative("Poisson", "lambda", lambda_);
  check_finite("Poisson", "lambda", lambda_);
  set_shapes(lambda_.sizes().vec());
}

Poisson::Poisson(const LogRate& log_rate) {
  log_rate_ = broadcast_parameters("Poisson", {log_rate.value})[0];
  check_finite("Poisson", "log_rate", log_rate_);
  set_shapes(log_rate_.sizes().vec());
}

at::Tensor Poisson::lambda() const { return has_log_rate() ? at::exp(log_rate_) : lambda_; }

at::Tensor Poisson::log_rate() const { return has_log_rate() ? log_rate_ : at::log(lambda_); }

at::Tensor Poisson::log_prob(const at::Tensor& value) const {
  const at::Tensor& parameter = has_log_rate() ? log_rate_ : lambda_;
  const at::Tensor x = as_floating(value, parameter);
  const at::Tensor inside = (x >= 0) & (x == at::floor(x)) & at::isfinite(x);
  // Outside the support the mass is evaluated at k = 0 and masked.
  const at::Tensor k = at::where(inside, x, at::zeros_like(x));
  at::Tensor log_mass;
  if (has_log_rate()) {
    log_mass = k * log_rate_ - at::exp(log_rate_);
  } else {
    // k log lambda is 0 at k = 0 even for lambda = 0: the logarithm sees 1 there, which
    // also keeps its gradient free of 0/0.
    log_mass = k * at::log(at::where(k == 0, at::ones_like(lambda_), lambda_)) - lambda_;
  }
  return mask_outside_support(log_mass - at::lgamma(k + 1), inside);
}

at::Tensor Poisson::sample(const Shape& sample_shape, at::Generator generator) const {
  const at::Tensor rate = lambda().detach();
  return at::poisson(rate.expand(extended_shape(sample_shape)).contiguous(), generator);
}

}  // namespace distributions

RandomVariable Poisson(std::string name, const TensorArg& lambda, Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::Poisson>(lambda.tensor()),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

RandomVariable Poisson(std::string name, const LogRate& log_rate, Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::Poisson>(log_rate),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
