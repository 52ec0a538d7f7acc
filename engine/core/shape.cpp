#include "engine/core/shape.h"

#include <algorithm>

#include "engine/core/checks.h"

namespace variate {

std::string to_string(c10::IntArrayRef shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

int64_t numel(c10::IntArrayRef shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Shape broadcast_shapes(c10::IntArrayRef a, c10::IntArrayRef b) {
  const size_t rank = std::max(a.size(), b.size());
  Shape result(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    const int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1) {
      throw ArgumentError("shapes " + to_string(a) + " and " + to_string(b) +
                          " do not broadcast");
    }
    result[rank - 1 - i] = da == 1 ? db : da;
  }
  return result;
}

Shape concat(c10::IntArrayRef a, c10::IntArrayRef b) {
  Shape result(a.begin(), a.end());
  result.insert(result.end(), b.begin(), b.end());
  return result;
}

}  // namespace variate
