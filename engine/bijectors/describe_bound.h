#pragma once
/// How bounded bijectors print their bounds in `name()`: "lower_bound(0)",
/// "interval(-1, 2.5)", "upper_bound(tensor[3])".

#include <string>

#include <ATen/core/Tensor.h>

namespace variate::bijectors {

/// The value of a one-element bound ("0", "2.5"), or "tensor[3]" for a bound with several.
std::string describe_bound(const at::Tensor& bound);

}  // namespace variate::bijectors
