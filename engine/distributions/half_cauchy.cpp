#include "engine/distributions/half_cauchy.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"
#include "engine/distributions/standard_draws.h"

namespace variate {
namespace distributions {

HalfCauchy::HalfCauchy(at::Tensor sigma) {
  auto p = broadcast_parameters("HalfCauchy", {std::move(sigma)});
  check_positive("HalfCauchy", "sigma", p[0]);
  sigma_ = p[0];
  set_shapes(sigma_.sizes().vec());
}

at::Tensor HalfCauchy::log_prob(const at::Tensor& value) const {
  const at::Tensor x = as_floating(value, sigma_);
  const at::Tensor inside = (x >= 0) & at::isfinite(x);
  // The formula runs on 1 outside the support, so nothing infinite reaches the
  // gradient of the masked entries.
  const at::Tensor z = at::where(inside, x, 1.0) / sigma_;
  return mask_outside_support(kLog2 - kLogPi - at::log(sigma_) - at::log1p(z * z), inside);
}

at::Tensor HalfCauchy::sample(const Shape& sample_shape, at::Generator generator) const {
  // Inverse CDF tan(pi u / 2) in double: double(pi) / 2 < pi / 2, so u near 1 never
  // rounds past the pole to a negative draw (float's pi would).
  const at::Tensor u = standard_uniform(extended_shape(sample_shape), generator,
                                        sigma_.options().dtype(at::kDouble));
  const at::Tensor noise = at::tan(M_PI_2 * u).to(sigma_.scalar_type());
  return clamp_positive(sigma_ * noise);  // reparameterized in sigma
}

}  // namespace distributions

RandomVariable HalfCauchy(std::string name, const TensorArg& sigma, Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::HalfCauchy>(sigma),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
