#include "engine/distributions/flat.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"

namespace variate {
namespace distributions {

at::Tensor Flat::log_prob(const at::Tensor& value) const {
  const at::Tensor x =
      at::isFloatingType(value.scalar_type()) ? value : value.to(at::kDouble);
  const at::Tensor inside = at::isfinite(x);
  // x * 0 rather than a fresh zero keeps the result on x's autograd graph (gradient 0);
  // the NaN it gives at infinities is masked.
  return mask_outside_support(x * 0, inside);
}

at::Tensor Flat::sample(const Shape& /*sample_shape*/, at::Generator /*generator*/) const {
  throw ArgumentError("Flat: an improper distribution cannot be sampled");
}

}  // namespace distributions

RandomVariable Flat(std::string name, Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::Flat>(),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
