#include "engine/core/tensor_arg.h"

#include <ATen/ATen.h>

#include "engine/core/random_variable.h"

namespace variate {

TensorArg::TensorArg(double value) : tensor_(at::scalar_tensor(value, at::kDouble)) {}
TensorArg::TensorArg(int value) : TensorArg(static_cast<double>(value)) {}
TensorArg::TensorArg(int64_t value) : TensorArg(static_cast<double>(value)) {}
TensorArg::TensorArg(at::Tensor value) : tensor_(std::move(value)) {
  // Integer data (counts, trial numbers) takes part in floating-point densities.
  if (tensor_.defined() && !at::isFloatingType(tensor_.scalar_type())) {
    tensor_ = tensor_.to(at::kDouble);
  }
}
TensorArg::TensorArg(const RandomVariable& rv) : TensorArg(rv.value()) {}

Logits logits(const TensorArg& value) { return {value.tensor()}; }
LogRate log_rate(const TensorArg& value) { return {value.tensor()}; }
ScaleTril scale_tril(const TensorArg& value) { return {value.tensor()}; }

}  // namespace variate
