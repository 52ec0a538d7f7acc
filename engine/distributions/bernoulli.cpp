#include "engine/distributions/bernoulli.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"

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
  at::Tensor log_mass;
  if (has_logits()) {
    // y eta - log(1 + e^eta): two passes over the data, as Stan's bernoulli_logit. The
    // threshold of 40 keeps softplus exact in double (e^-40 is below the rounding).
    log_mass = y * parameter - at::softplus(parameter, 1, 40);
  } else {
    // Each branch sees a harmless argument where it is not selected, so theta = 0 or 1
    // gives log(1) rather than a NaN gradient from the other branch.
    const at::Tensor is_one = y == 1;
    const at::Tensor one = at::ones_like(parameter);
    const at::Tensor zero = at::zeros_like(parameter);
    log_mass = at::where(is_one, at::log(at::where(is_one, parameter, one)),
                         at::log1p(-at::where(is_one, zero, parameter)));
  }
  // Values other than 0 and 1 have no mass. Samplers evaluate with validation off, on
  // observed data that was checked against the support when it was bound, so the mask
  // (three more passes over the data) is skipped there.
  if (!validation_enabled()) return log_mass;
  return mask_outside_support(log_mass, (y == 1) | (y == 0));
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
