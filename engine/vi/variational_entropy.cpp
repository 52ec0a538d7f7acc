#include "engine/vi/variational_entropy.h"

#include <cmath>

#include <ATen/ATen.h>

#include "engine/distributions/multi_normal.h"
#include "engine/distributions/normal.h"

namespace variate {
namespace {

const double kHalfLog2PiE = 0.5 * std::log(2 * M_PI * M_E);

}  // namespace

std::optional<at::Tensor> analytic_entropy(const RandomVariable& rv) {
  const double copies = static_cast<double>(numel(rv.sample_shape()));
  const auto& distribution = rv.distribution();
  if (const auto* normal = dynamic_cast<const distributions::Normal*>(&distribution)) {
    const at::Tensor per_element = at::log(normal->sigma()) + kHalfLog2PiE;
    const at::Tensor total = per_element.expand(normal->batch_shape()).sum();
    return total * copies;
  }
  if (const auto* multi = dynamic_cast<const distributions::MultiNormal*>(&distribution)) {
    const at::Tensor& factor = multi->scale_tril();
    const double k = static_cast<double>(factor.size(-1));
    // The factor may have fewer batch dimensions than the distribution (one covariance,
    // many means): expand its per-vector entropy to the batch.
    const at::Tensor per_vector = at::log(factor.diagonal(0, -2, -1)).sum(-1) + k * kHalfLog2PiE;
    const at::Tensor total = per_vector.expand(multi->batch_shape()).sum();
    return total * copies;
  }
  return std::nullopt;
}

}  // namespace variate
