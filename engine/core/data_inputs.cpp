#include "engine/core/data_inputs.h"

#include <charconv>

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/number_text.h"

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

// " at sigma[3]" (from 1, as the model text indexes), " at X[2, 1]"; nothing for a scalar.
std::string at_element(const std::string& name, int64_t flat, c10::IntArrayRef shape) {
  if (shape.empty()) return "";
  std::vector<int64_t> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = flat % shape[d] + 1;
    flat /= shape[d];
  }
  std::string text = " at " + name + "[";
  for (size_t i = 0; i < index.size(); ++i) text += (i ? ", " : "") + std::to_string(index[i]);
  return text + "]";
}

}  // namespace

void check_bound(const std::string& name, const at::Tensor& value, const at::Tensor& limit, bool lower,
                 const std::string& limit_text) {
  if (limit.dim() != 0 && limit.sizes() != value.sizes()) {
    throw ArgumentError(std::string("the ") + (lower ? "lower" : "upper") + " bound of '" + name + "' has shape " +
                        to_string(limit.sizes()) + "; a bound is a scalar or has the data's shape " +
                        to_string(value.sizes()));
  }
  const at::Tensor values = value.to(at::kDouble);
  const at::Tensor limits = limit.to(at::kDouble).expand(value.sizes());
  const at::Tensor bad = (lower ? ~(values >= limits) : ~(values <= limits)).reshape(-1);
  if (!bad.any().item<bool>()) return;
  const int64_t first = bad.nonzero()[0][0].item<int64_t>();
  throw ArgumentError("data '" + name + "' must be " + (lower ? ">= " : "<= ") + limit_text + " (its " +
                      (lower ? "lower" : "upper") + " bound), got " +
                      format_number(values.reshape(-1)[first].item<double>(), true) +
                      at_element(name, first, value.sizes()));
}

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
