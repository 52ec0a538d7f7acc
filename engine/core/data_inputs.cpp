#include "engine/core/data_inputs.h"

#include <charconv>

#include <ATen/ATen.h>

#include "engine/core/checks.h"

namespace variate {
namespace {

const at::Tensor& declared(const Data& data, const std::string& name, const Shape& shape) {
  if (!data.contains(name)) {
    throw ArgumentError("data '" + name + "' is declared but missing from the data");
  }
  const at::Tensor& value = data[name];
  if (value.sizes() != c10::IntArrayRef(shape)) {
    throw ArgumentError("data '" + name + "' has shape " + to_string(value.sizes()) +
                        ", expected " + to_string(shape));
  }
  return value;
}

}  // namespace

at::Tensor int_input(const Data& data, const std::string& name, const Shape& shape) {
  const at::Tensor& value = declared(data, name, shape);
  if (at::isFloatingType(value.scalar_type())) {
    const at::Tensor fractional = value != at::floor(value);
    if (fractional.any().item<bool>()) {
      const double bad = value.reshape(-1)[fractional.reshape(-1).nonzero()[0][0]].item<double>();
      char text[32];
      const auto end = std::to_chars(text, text + sizeof text, bad).ptr;  // shortest exact text
      throw ArgumentError("data '" + name + "' is declared int but holds the real value " +
                          std::string(text, end));
    }
  }
  return value.to(at::kLong);
}

int64_t int_input(const Data& data, const std::string& name) {
  return int_input(data, name, Shape{}).item<int64_t>();
}

at::Tensor real_input(const Data& data, const std::string& name, const Shape& shape) {
  return declared(data, name, shape).to(at::kDouble);
}

}  // namespace variate
