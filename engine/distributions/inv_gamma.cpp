#include "engine/distributions/inv_gamma.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"
#include "engine/distributions/standard_draws.h"

namespace variate {
namespace distributions {

InvGamma::InvGamma(at::Tensor alpha, at::Tensor beta) {
  auto p = broadcast_parameters("InvGamma", {std::move(alpha), std::move(beta)});
  check_positive("InvGamma", "alpha", p[0]);
  check_positive("InvGamma", "beta", p[1]);
  alpha_ = p[0];
  beta_ = p[1];
  set_shapes(alpha_.sizes().vec());
}

at::Tensor InvGamma::log_prob(const at::Tensor& value) const {
  const at::Tensor x = as_floating(value, alpha_);
  const at::Tensor inside = (x > 0) & at::isfinite(x);
  // The formula runs on 1 outside the support, so nothing infinite reaches the
  // gradient of the masked entries.
  const at::Tensor safe = at::where(inside, x, 1.0);
  const at::Tensor log_density = alpha_ * at::log(beta_) - at::lgamma(alpha_) -
                                 (alpha_ + 1.0) * at::log(safe) - beta_ / safe;
  return mask_outside_support(log_density, inside);
}

at::Tensor InvGamma::sample(const Shape& sample_shape, at::Generator generator) const {
  // beta / Gamma(alpha, 1): differentiable in beta, and in alpha through _standard_gamma.
  const at::Tensor standard =
      standard_gamma(alpha_.expand(extended_shape(sample_shape)), generator);
  return beta_ / standard;
}

}  // namespace distributions

RandomVariable InvGamma(std::string name, const TensorArg& alpha, const TensorArg& beta,
                        Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::InvGamma>(alpha, beta),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
