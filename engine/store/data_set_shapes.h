#pragma once
/// The variables of a CmdStan JSON data set with their shapes, for showing a data set
/// without binding it to a model.

#include <cstdint>
#include <string>
#include <vector>

namespace variate::store {

struct DataVariable {
  std::string name;
  std::vector<int64_t> shape;  ///< empty for a scalar; matrices are [rows, columns]
  bool integer = false;        ///< every value is an integer
};

/// The variables of `json_text` by name.
/// @throws ProjectError "data set 'NAME': ..." for text CmdStan JSON does not accept.
std::vector<DataVariable> data_set_shapes(const std::string& name, const std::string& json_text);

}  // namespace variate::store
