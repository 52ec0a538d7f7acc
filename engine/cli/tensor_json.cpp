#include "engine/cli/tensor_json.h"

#include <ATen/ATen.h>

namespace variate::cli {

nlohmann::ordered_json tensor_to_json(const at::Tensor& tensor) {
  const at::Tensor t = tensor.detach().to(at::kDouble);
  if (t.dim() == 0) return t.item<double>();
  nlohmann::ordered_json array = nlohmann::ordered_json::array();
  for (int64_t i = 0; i < t.size(0); ++i) array.push_back(tensor_to_json(t[i]));
  return array;
}

}  // namespace variate::cli
