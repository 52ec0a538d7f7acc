#include "engine/distributions/uniform.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"

namespace variate {
namespace distributions {

Uniform::Uniform(at::Tensor alpha, at::Tensor beta) {
  auto p = broadcast_parameters("Uniform", {std::move(alpha), std::move(beta)});
  check_finite("Uniform", "alpha", p[0]);
  check_finite("Uniform", "beta", p[1]);
  check_less("Uniform", "alpha", p[0], "beta", p[1]);
  alpha_ = p[0];
  beta_ = p[1];
  set_shapes(alpha_.sizes().vec());
}

at::Tensor Uniform::log_prob(const at::Tensor& value) const {
  const at::Tensor x = as_floating(value, alpha_);
  const at::Tensor inside = (x >= alpha_) & (x <= beta_);
  // The density does not depend on x; broadcasting against `inside` gives the shape.
  return mask_outside_support(-at::log(beta_ - alpha_), inside);
}

at::Tensor Uniform::sample(const Shape& sample_shape, at::Generator generator) const {
  const at::Tensor u = at::rand(extended_shape(sample_shape), generator, alpha_.options());
  return alpha_ + (beta_ - alpha_) * u;
}

}  // namespace distributions

RandomVariable Uniform(std::string name, const TensorArg& alpha, const TensorArg& beta,
                       Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::Uniform>(alpha, beta),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
