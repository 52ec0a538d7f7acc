#include "engine/core/data.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/shape.h"

namespace variate {

Data& Data::set(const std::string& name, at::Tensor value) {
  if (!value.defined()) throw ArgumentError("Data::set: value of '" + name + "' is undefined");
  values_[name] = std::move(value);
  return *this;
}

Data& Data::set(const std::string& name, int64_t value) {
  return set(name, at::scalar_tensor(value, at::kLong));
}

Data& Data::set(const std::string& name, double value) {
  return set(name, at::scalar_tensor(value, at::kDouble));
}

bool Data::contains(const std::string& name) const { return values_.count(name) > 0; }

const at::Tensor& Data::operator[](const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) throw ArgumentError("data has no variable '" + name + "'");
  return it->second;
}

int64_t Data::dim(const std::string& name) const {
  const at::Tensor& value = (*this)[name];
  if (value.dim() != 0) {
    throw ArgumentError("data variable '" + name + "' must be an integer scalar, got shape " +
                        to_string(value.sizes()));
  }
  const double v = value.item<double>();
  if (v != static_cast<double>(static_cast<int64_t>(v))) {
    throw ArgumentError("data variable '" + name + "' must be an integer, got " +
                        std::to_string(v));
  }
  return static_cast<int64_t>(v);
}

std::vector<std::string> Data::names() const {
  std::vector<std::string> result;
  for (const auto& [name, value] : values_) result.push_back(name);
  return result;
}

}  // namespace variate
