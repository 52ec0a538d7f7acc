#include "engine/bijectors/identity.h"

#include <ATen/ATen.h>

namespace variate::bijectors {

at::Tensor Identity::forward(const at::Tensor& y) const { return y; }

at::Tensor Identity::inverse(const at::Tensor& x) const { return x; }

at::Tensor Identity::forward_log_det_jacobian(const at::Tensor& y) const {
  return at::zeros_like(y);
}

}  // namespace variate::bijectors
