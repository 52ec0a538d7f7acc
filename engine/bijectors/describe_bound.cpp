#include "engine/bijectors/describe_bound.h"

#include <sstream>

#include <ATen/ATen.h>

namespace variate::bijectors {

std::string describe_bound(const at::Tensor& bound) {
  if (bound.numel() == 1) {
    std::ostringstream out;
    out << bound.item<double>();
    return out.str();
  }
  return "tensor" + c10::str(bound.sizes());
}

}  // namespace variate::bijectors
