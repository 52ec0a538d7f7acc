#pragma once
/// Positions in text for error messages.

#include <cstddef>
#include <string>

namespace variate::io {

/// "line:column" (both 1-based) of a byte offset in `text`.
std::string line_column(const std::string& text, size_t offset);

}  // namespace variate::io
