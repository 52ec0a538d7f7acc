#include "engine/distributions/dirichlet.h"

#include <algorithm>
#include <limits>

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"
#include "engine/distributions/standard_draws.h"

namespace variate {
namespace distributions {
Dirichlet::Dirichlet(at::Tensor alpha) {
  alpha_ = broadcast_parameters("Dirichlet", {std::move(alpha)})[0];
  check_min_rank("Dirichlet", "alpha", alpha_, 1);
  check_positive("Dirichlet", "alpha", alpha_);
  check_finite("Dirichlet", "alpha", alpha_);
  const auto sizes = alpha_.sizes();
  set_shapes(Shape(sizes.begin(), sizes.end() - 1), {sizes.back()});
}

at::Tensor Dirichlet::log_prob(const at::Tensor& value) const {
  const int64_t k = alpha_.size(-1);
  if (value.dim() < 1 || value.size(-1) != k) {
    throw ArgumentError("Dirichlet: value must end in " + std::to_string(k) +
                        " entries, got shape " + to_string(value.sizes()));
  }
  const at::Tensor x = as_floating(value, alpha_);
  const at::Tensor normalizer = at::lgamma(alpha_.sum(-1)) - at::lgamma(alpha_).sum(-1);
  // xlogy: an entry at 0 with alpha = 1 contributes 0, not 0 * -inf.
  const at::Tensor log_prob = normalizer + at::xlogy(alpha_ - 1, x).sum(-1);
  const at::Tensor inside =
      (x >= 0).all(-1) &
      (at::abs(x.sum(-1) - 1) < rounding_tolerance(x.scalar_type(), k));
  return mask_outside_support(log_prob, inside);
}

at::Tensor Dirichlet::sample(const Shape& sample_shape, at::Generator generator) const {
  const at::Tensor concentration = alpha_.expand(extended_shape(sample_shape));
  // Gamma draws are raised to the smallest normal number, so the sum is positive even
  // for tiny alpha.
  const at::Tensor gamma = standard_gamma(concentration, generator);
  return gamma / gamma.sum(-1, /*keepdim=*/true);
}

}  // namespace distributions

RandomVariable Dirichlet(std::string name, const TensorArg& alpha, Shape sample_shape) {
  return make_random_variable({std::move(name), std::make_shared<distributions::Dirichlet>(alpha),
                               std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
