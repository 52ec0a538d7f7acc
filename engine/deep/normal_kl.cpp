#include "engine/deep/normal_kl.h"

#include <ATen/ATen.h>

namespace variate::deep {

at::Tensor normal_kl(const at::Tensor& loc, const at::Tensor& scale, const at::Tensor& prior_loc,
                     const at::Tensor& prior_scale) {
  return at::log(prior_scale) - at::log(scale) +
         (scale.square() + (loc - prior_loc).square()) / (2 * prior_scale.square()) - 0.5;
}

}  // namespace variate::deep
