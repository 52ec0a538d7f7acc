#include "engine/distributions/neg_binomial_2.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"

namespace variate {
namespace distributions {
namespace {

// lgamma(x) minus its Stirling approximation (x - 1/2) log x - x + log(2 pi) / 2: the
// asymptotic series from x = 10 on, the direct difference below (Stan's
// lgamma_stirling_diff).
at::Tensor lgamma_stirling_diff(const at::Tensor& x) {
  constexpr double kSeries[] = {1.0 / 12,    -1.0 / 360,  1.0 / 1260,
                                -1.0 / 1680, 1.0 / 1188,  -691.0 / 360360};
  const at::Tensor large = x >= 10;
  // Each branch sees a value in its own range, so neither puts NaN into the gradient.
  const at::Tensor big = at::where(large, x, at::full({}, 10.0, x.options()));
  const at::Tensor small = at::where(large, at::ones_like(x), x);
  const at::Tensor inverse_square = 1 / (big * big);
  at::Tensor series = at::full({}, kSeries[5], x.options());
  for (int i = 4; i >= 0; --i) series = kSeries[i] + series * inverse_square;
  const at::Tensor direct =
      at::lgamma(small) - ((small - 0.5) * at::log(small) - small + kHalfLog2Pi);
  return at::where(large, series / big, direct);
}

// lgamma(k + phi) - lgamma(phi) without the cancellation of the two lgammas when phi is
// large: the Stirling parts cancel analytically, leaving
// k log(k + phi) - k + (phi - 1/2) log1p(k / phi) plus the two corrections.
at::Tensor log_rising_factorial(const at::Tensor& phi, const at::Tensor& k) {
  return k * at::log(k + phi) - k + (phi - 0.5) * at::log1p(k / phi) +
         lgamma_stirling_diff(k + phi) - lgamma_stirling_diff(phi);
}

}  // namespace

NegBinomial2::NegBinomial2(at::Tensor mu, at::Tensor phi) {
  auto p = broadcast_parameters("NegBinomial2", {std::move(mu), std::move(phi)});
  check_positive("NegBinomial2", "mu", p[0]);
  check_finite("NegBinomial2", "mu", p[0]);
  check_positive("NegBinomial2", "phi", p[1]);
  check_finite("NegBinomial2", "phi", p[1]);
  mu_ = p[0];
  phi_ = p[1];
  set_shapes(mu_.sizes().vec());
}

at::Tensor NegBinomial2::log_prob(const at::Tensor& value) const {
  const at::Tensor x = as_floating(value, mu_);
  const at::Tensor inside = (x >= 0) & (x == at::floor(x)) & at::isfinite(x);
  // Outside the support the mass is evaluated at k = 0 and masked.
  const at::Tensor k = at::where(inside, x, at::zeros_like(x));
  const at::Tensor log_choose = log_rising_factorial(phi_, k) - at::lgamma(k + 1);
  // log(mu / (mu + phi)) = -log1p(phi / mu) and log(phi / (mu + phi)) = -log1p(mu / phi)
  // keep their precision when one parameter dwarfs the other.
  const at::Tensor log_mass =
      log_choose - k * at::log1p(phi_ / mu_) - phi_ * at::log1p(mu_ / phi_);
  return mask_outside_support(log_mass, inside);
}

at::Tensor NegBinomial2::sample(const Shape& sample_shape, at::Generator generator) const {
  const Shape shape = extended_shape(sample_shape);
  const at::Tensor phi = phi_.detach().expand(shape).contiguous();
  const at::Tensor rate = at::_standard_gamma(phi, generator) * (mu_.detach() / phi_.detach());
  return at::poisson(rate, generator);
}

}  // namespace distributions

RandomVariable NegBinomial2(std::string name, const TensorArg& mu, const TensorArg& phi,
                            Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::NegBinomial2>(mu, phi),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
