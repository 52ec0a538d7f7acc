#include "engine/target/parameter_names.h"

#include "engine/core/checks.h"

namespace variate {
namespace {

void check_extents(const char* function, const Shape& shape) {
  for (const int64_t extent : shape) {
    if (extent < 0) {
      throw ArgumentError(std::string(function) + ": argument 'shape' must have " +
                          "non-negative extents, got " + to_string(shape));
    }
  }
}

// Calls `visit(index)` for every multi-index of `shape`, first index fastest.
template <class Visit>
void for_each_column_major(const Shape& shape, Visit visit) {
  const int64_t count = numel(shape);
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t k = 0; k < count; ++k) {
    visit(index);
    for (size_t d = 0; d < index.size(); ++d) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
}

}  // namespace

std::vector<std::string> element_names(const std::string& name, const Shape& shape,
                                       NameStyle style) {
  check_extents("element_names", shape);
  std::vector<std::string> names;
  names.reserve(static_cast<size_t>(numel(shape)));
  for_each_column_major(shape, [&](const std::vector<int64_t>& index) {
    std::string element = name;
    for (size_t d = 0; d < index.size(); ++d) {
      if (style == NameStyle::StanCsv) {
        element += '.';
      } else {
        element += d == 0 ? '[' : ',';
      }
      element += std::to_string(index[d] + 1);
    }
    if (style == NameStyle::Bracketed && !index.empty()) element += ']';
    names.push_back(std::move(element));
  });
  return names;
}

std::vector<int64_t> column_major_order(const Shape& shape) {
  check_extents("column_major_order", shape);
  std::vector<int64_t> strides(shape.size(), 1);  // row-major strides
  for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
  std::vector<int64_t> order;
  order.reserve(static_cast<size_t>(numel(shape)));
  for_each_column_major(shape, [&](const std::vector<int64_t>& index) {
    int64_t offset = 0;
    for (size_t d = 0; d < index.size(); ++d) offset += index[d] * strides[d];
    order.push_back(offset);
  });
  return order;
}

std::string to_style(const std::string& name, NameStyle style) {
  if (style == NameStyle::Bracketed) {
    const auto dot = name.find('.');
    if (dot == std::string::npos) return name;
    std::string result = name.substr(0, dot) + '[';
    for (size_t i = dot + 1; i < name.size(); ++i) result += name[i] == '.' ? ',' : name[i];
    return result + ']';
  }
  const auto open = name.find('[');
  if (open == std::string::npos || name.back() != ']') return name;
  std::string result = name.substr(0, open) + '.';
  for (size_t i = open + 1; i + 1 < name.size(); ++i) {
    const char c = name[i];
    if (c == ',') {
      result += '.';
    } else if (c != ' ') {
      result += c;
    }
  }
  return result;
}

}  // namespace variate
