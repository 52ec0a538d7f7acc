#include "engine/store/data_set_shapes.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/io/data_file.h"
#include "engine/store/project_error.h"

namespace variate::store {

std::vector<DataVariable> data_set_shapes(const std::string& name, const std::string& json_text) {
  try {
    // The data reader's own rules (rectangular lists, integers, "NaN" strings) decide.
    const Data data = io::parse_json_data(json_text, "data set '" + name + "'");
    std::vector<DataVariable> variables;
    for (const auto& [variable, tensor] : data.values()) {
      const auto sizes = tensor.sizes();
      variables.push_back({variable, std::vector<int64_t>(sizes.begin(), sizes.end()),
                           !at::isFloatingType(tensor.scalar_type())});
    }
    return variables;
  } catch (const ArgumentError& e) {
    throw ProjectError(e.what());
  }
}

}  // namespace variate::store
