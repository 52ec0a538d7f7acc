#include "engine/distributions/beta.h"

#include <limits>

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"

namespace variate {
namespace distributions {
namespace {

// The open unit interval in `dtype`: the smallest normal number and the largest number
// below 1.
template <typename T>
std::pair<double, double> open_unit_bounds() {
  return {std::numeric_limits<T>::min(), 1.0 - std::numeric_limits<T>::epsilon() / 2};
}

}  // namespace

Beta::Beta(at::Tensor alpha, at::Tensor beta) {
  auto p = broadcast_parameters("Beta", {std::move(alpha), std::move(beta)});
  check_positive("Beta", "alpha", p[0]);
  check_finite("Beta", "alpha", p[0]);
  check_positive("Beta", "beta", p[1]);
  check_finite("Beta", "beta", p[1]);
  alpha_ = p[0];
  beta_ = p[1];
  set_shapes(alpha_.sizes().vec());
}

at::Tensor Beta::log_prob(const at::Tensor& value) const {
  const at::Tensor x = as_floating(value, alpha_);
  const at::Tensor inside = (x > 0) & (x < 1);
  // Outside, the density is evaluated at 1/2 and masked, so no NaN reaches a gradient.
  const at::Tensor safe = at::where(inside, x, at::full({}, 0.5, x.options()));
  const at::Tensor log_beta_function =
      at::lgamma(alpha_) + at::lgamma(beta_) - at::lgamma(alpha_ + beta_);
  const at::Tensor log_density =
      (alpha_ - 1) * at::log(safe) + (beta_ - 1) * at::log1p(-safe) - log_beta_function;
  return mask_outside_support(log_density, inside);
}

at::Tensor Beta::sample(const Shape& sample_shape, at::Generator generator) const {
  const Shape shape = extended_shape(sample_shape);
  const auto [tiny, below_one] = alpha_.scalar_type() == at::kFloat
                                     ? open_unit_bounds<float>()
                                     : open_unit_bounds<double>();
  // _standard_gamma is differentiable in its shape (implicit reparameterization).
  // Gammas of small shapes underflow to 0; flooring them keeps 0/0 out of the ratio, and
  // the clamp keeps rounded draws inside the open interval where log_prob is finite.
  const at::Tensor x =
      at::_standard_gamma(alpha_.expand(shape).contiguous(), generator).clamp_min(tiny);
  const at::Tensor y =
      at::_standard_gamma(beta_.expand(shape).contiguous(), generator).clamp_min(tiny);
  return (x / (x + y)).clamp(tiny, below_one);
}

}  // namespace distributions

RandomVariable Beta(std::string name, const TensorArg& alpha, const TensorArg& beta,
                    Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::Beta>(alpha, beta),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
