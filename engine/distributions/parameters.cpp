#include "engine/distributions/parameters.h"

#include <algorithm>
#include <limits>
#include <optional>

#include <ATen/ATen.h>

#include "engine/core/checks.h"

namespace variate::distributions {

std::vector<at::Tensor> broadcast_parameters(const char* family,
                                             std::initializer_list<at::Tensor> parameters) {
  // Dimensioned floating tensors decide the dtype; 0-dim numbers (float64 by default)
  // only decide it when there is nothing else, so float32 parameters stay float32.
  std::optional<at::ScalarType> tensor_dtype;
  at::ScalarType number_dtype = at::kDouble;
  bool any_number = false;
  for (const auto& p : parameters) {
    if (!p.defined()) throw ArgumentError(std::string(family) + ": a parameter is undefined");
    if (!at::isFloatingType(p.scalar_type())) continue;
    if (p.dim() > 0) {
      tensor_dtype = tensor_dtype ? at::promote_types(*tensor_dtype, p.scalar_type())
                                  : p.scalar_type();
    } else {
      number_dtype = any_number ? at::promote_types(number_dtype, p.scalar_type())
                                : p.scalar_type();
      any_number = true;
    }
  }
  const at::ScalarType dtype = tensor_dtype.value_or(number_dtype);
  std::vector<at::Tensor> converted;
  for (const auto& p : parameters) converted.push_back(p.to(dtype));
  try {
    return at::broadcast_tensors(converted);
  } catch (const c10::Error&) {
    std::string shapes;
    for (const auto& p : converted) shapes += (shapes.empty() ? "" : ", ") + to_string(p.sizes());
    throw ArgumentError(std::string(family) + ": parameter shapes " + shapes +
                        " do not broadcast");
  }
}

at::Tensor as_floating(const at::Tensor& value, const at::Tensor& like) {
  if (value.scalar_type() == like.scalar_type()) return value;
  if (at::isFloatingType(value.scalar_type()) && value.dim() > 0 &&
      like.scalar_type() == at::kFloat) {
    return value;  // keep a double value double; promotion happens in the arithmetic
  }
  return value.to(like.scalar_type());
}

at::Tensor mask_outside_support(const at::Tensor& log_prob, const at::Tensor& inside) {
  const at::Tensor minus_infinity =
      at::full({}, -std::numeric_limits<double>::infinity(), log_prob.options());
  return at::where(inside, log_prob, minus_infinity);
}

double rounding_tolerance(at::ScalarType dtype, int64_t entries) {
  const double epsilon = dtype == at::kDouble ? std::numeric_limits<double>::epsilon()
                                              : std::numeric_limits<float>::epsilon();
  return std::max(1e-8, 8.0 * static_cast<double>(entries) * epsilon);
}

}  // namespace variate::distributions
