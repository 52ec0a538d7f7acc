#include "engine/io/parameter_values.h"

#include <algorithm>

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/shape.h"
#include "engine/io/data_file.h"

namespace variate::io {

ValueMap parse_parameters(const std::string& text, const std::string& path, const ParameterLayout& layout,
                          const std::vector<std::string>& derived_names) {
  const Data given = parse_json_data(text, path);
  for (const auto& name : given.names()) {
    bool known = false;
    for (const auto& p : layout.parameters()) known |= p.name == name;
    const bool derived = std::find(derived_names.begin(), derived_names.end(), name) != derived_names.end();
    if (!known && !derived) {
      throw ArgumentError(path + ": '" + name + "' is not a parameter of the model");
    }
  }
  ValueMap values;
  for (const auto& p : layout.parameters()) {
    if (!given.contains(p.name)) {
      throw ArgumentError(path + ": no value for parameter '" + p.name + "'");
    }
    const at::Tensor value = given[p.name].to(at::kDouble);
    if (value.sizes() != c10::IntArrayRef(p.shape)) {
      throw ArgumentError(path + ": parameter '" + p.name + "' has shape " +
                          to_string(value.sizes()) + ", expected " + to_string(p.shape));
    }
    values[p.name] = value;
  }
  // Bounds computed from other parameters are taken at these values.
  const std::vector<Support> supports = layout.supports_at(values);
  for (size_t i = 0; i < supports.size(); ++i) {
    const ParameterInfo& p = layout.parameters()[i];
    if (!supports[i].contains(values.at(p.name)).all().item<bool>()) {
      throw ArgumentError(path + ": parameter '" + p.name + "' is outside its support (" + supports[i].to_string() +
                          (p.support_varies ? " at these values" : "") + ")");
    }
  }
  return values;
}

}  // namespace variate::io
