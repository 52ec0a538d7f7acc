#include "variate/distributions/bernoulli.h"

#include <ATen/ATen.h>

#include "variate/core/checks.h"
#include "variate/core/tracing.h"
#include "variate/distributions/parameters.h"

namespace variate {
namespace distributions {

Bernoulli::Bernoulli(at::Tensor theta) {
  theta_ = broadcast_parameters("Bernoulli", {std::move(theta)})[0];
  check_probability("Bernoulli", "theta", theta_);
  set_shapes(theta_.sizes().vec());
}

Bernoulli::Bernoulli(const Logits& logits) {
  logits_ = broadcast_parameters("Bernoulli", {logits.value})[0];
  check_finite("Bernoulli", "logits", logits_);
  set_shapes(logits_.sizes().vec());
}

at::Tensor Bernoulli::theta() const { return has_logits() ? at::sigmoid(logits_) : theta_; }

at::Tensor Bernoulli::logits() const { return has_logits() ? logits_ : at::logit(theta_); }

at::Tensor Bernoulli::log_prob(const at::Tensor& value) const {
  const at::Tensor& parameter = has_logits() ? logits_ : theta_;
  const at::Tensor y = as_floating(value, parameter);
  const at::Tensor is_one = y == 1;
  const at::Tensor inside = is_one | (y == 0);
  at::Tensor log_mass;
  if (has_logits()) {
    // log inv_logit(+-eta), which log_sigmoid computes without overflow.
    log_mass = at::log_sigmoid(at::where(is_one, parameter, -parameter));
  } else {
    // Each branch sees a harmless argument where it is not selected, so theta = 0 or 1
    // gives log(1) rather than a NaN gradient from the other branch.
    const at::Tensor one = at::ones_like(parameter);
    const at::Tensor zero = at::zeros_like(parameter);
    log_mass = at::where(is_one, at::log(at::where(is_one, parameter, one)),
                         at::log1p(-at::where(is_one, zero, parameter)));
  }
  return mask_outside_support(log_mass, inside);
}

at::Tensor Bernoulli::sample(const Shape& sample_shape, at::Generator generator) const {
  const at::Tensor probability = theta().detach();
  return at::bernoulli(probability.expand(extended_shape(sample_shape)).contiguous(),
                       generator);
}

}  // namespace distributions

RandomVariable Bernoulli(std::string name, const TensorArg& theta, Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::Bernoulli>(theta.tensor()),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

RandomVariable Bernoulli(std::string name, const Logits& logits, Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::Bernoulli>(logits),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
