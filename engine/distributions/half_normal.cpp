#include "engine/distributions/half_normal.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"
#include "engine/distributions/standard_draws.h"

namespace variate {
namespace distributions {

HalfNormal::HalfNormal(at::Tensor sigma) {
  auto p = broadcast_parameters("HalfNormal", {std::move(sigma)});
  check_positive("HalfNormal", "sigma", p[0]);
  sigma_ = p[0];
  set_shapes(sigma_.sizes().vec());
}

at::Tensor HalfNormal::log_prob(const at::Tensor& value) const {
  const at::Tensor x = as_floating(value, sigma_);
  const at::Tensor inside = (x >= 0) & at::isfinite(x);
  // The formula runs on 1 outside the support, so nothing infinite reaches the
  // gradient of the masked entries.
  const at::Tensor z = at::where(inside, x, 1.0) / sigma_;
  return mask_outside_support(kLog2 - kHalfLog2Pi - at::log(sigma_) - 0.5 * z * z, inside);
}

at::Tensor HalfNormal::sample(const Shape& sample_shape, at::Generator generator) const {
  const at::Tensor noise =
      at::normal(0.0, 1.0, extended_shape(sample_shape), generator, sigma_.options());
  return clamp_positive(sigma_ * at::abs(noise));  // reparameterized in sigma
}

}  // namespace distributions

RandomVariable HalfNormal(std::string name, const TensorArg& sigma, Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::HalfNormal>(sigma),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
