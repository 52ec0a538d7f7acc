#include "engine/vi/variational_columns.h"

#include <algorithm>

namespace variate {

const std::vector<std::string>& variational_column_names() {
  static const std::vector<std::string> names = {"lp__", "log_p__", "log_g__"};
  return names;
}

bool starts_with_variational_columns(const std::vector<std::string>& columns) {
  const auto& names = variational_column_names();
  return columns.size() >= names.size() && std::equal(names.begin(), names.end(), columns.begin());
}

}  // namespace variate
