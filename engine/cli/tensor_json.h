#pragma once
// Tensors as nested JSON arrays (row-major), as CmdStan JSON writes arrays.

#include <ATen/core/Tensor.h>
#include <nlohmann/json.hpp>

namespace variate::cli {

nlohmann::ordered_json tensor_to_json(const at::Tensor& tensor);

}  // namespace variate::cli
