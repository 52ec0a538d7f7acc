#include "engine/codegen/line_wrap.h"

namespace variate::codegen {
namespace {

struct Break {
  size_t position;  // the next line starts here
  int depth;        // parentheses and braces open at the break
};

// Breaks after ", " and before " + " / " - " (binary operators have spaces around them in
// generated code), outside string literals.
std::vector<Break> breaks(const std::string& text) {
  std::vector<Break> result;
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (c == '(' || c == '{' || c == '[') ++depth;
    if (c == ')' || c == '}' || c == ']') --depth;
    if (c == ',' && i + 1 < text.size() && text[i + 1] == ' ') result.push_back({i + 2, depth});
    if (c == ' ' && i + 2 < text.size() && (text[i + 1] == '+' || text[i + 1] == '-') &&
        text[i + 2] == ' ') {
      result.push_back({i + 1, depth});
    }
  }
  return result;
}

}  // namespace

std::vector<std::string> wrap_line(const std::string& line, int indent, int width) {
  std::vector<std::string> lines;
  std::string rest = line;
  int current_indent = indent;
  while (static_cast<int>(rest.size()) + current_indent > width) {
    const std::vector<Break> candidates = breaks(rest);
    if (candidates.empty()) break;
    // The shallowest break that fits, the rightmost of those; if none fits, the first.
    const Break* best = nullptr;
    for (const auto& b : candidates) {
      if (static_cast<int>(b.position) + current_indent > width) break;
      if (!best || b.depth <= best->depth) best = &b;
    }
    if (!best) best = &candidates.front();
    std::string head = rest.substr(0, best->position);
    while (!head.empty() && head.back() == ' ') head.pop_back();
    lines.push_back(std::string(current_indent, ' ') + head);
    rest = rest.substr(best->position);
    current_indent = indent + 4;
  }
  lines.push_back(std::string(current_indent, ' ') + rest);
  return lines;
}

}  // namespace variate::codegen
