#pragma once
/// Breaks long generated C++ lines where clang-format would: after the commas and before
/// the + and - of the outermost parentheses first, with continuation lines indented by
/// four more spaces.

#include <string>
#include <vector>

namespace variate::codegen {

/// `line` (without its indentation) as lines of at most `width` columns where a break is
/// possible, each with its indentation.
std::vector<std::string> wrap_line(const std::string& line, int indent, int width = 100);

}  // namespace variate::codegen
