#include "engine/model/source.h"

#include <algorithm>

#include "engine/core/byte_order_mark.h"

namespace variate::model {

Source::Source(std::string name, std::string text)
    : name_(std::move(name)), text_(std::move(text)) {
  drop_byte_order_mark(text_);  // columns on line 1 count from the first character shown
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
}

std::string_view Source::text(Span span) const {
  const std::size_t begin = std::min(span.begin, text_.size());
  const std::size_t end = std::clamp(span.end, begin, text_.size());
  return std::string_view(text_).substr(begin, end - begin);
}

Location Source::location(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  // The last line start at or before the offset.
  const auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset) - 1;
  return {static_cast<std::size_t>(it - line_starts_.begin()) + 1, offset - *it + 1};
}

std::size_t Source::line_start(std::size_t line) const {
  if (line == 0) return 0;
  if (line > line_starts_.size()) return text_.size();
  return line_starts_[line - 1];
}

std::string_view Source::line_text(std::size_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  const std::size_t begin = line_starts_[line - 1];
  std::size_t end = line < line_starts_.size() ? line_starts_[line] - 1 : text_.size();
  if (end > begin && text_[end - 1] == '\r') --end;
  return std::string_view(text_).substr(begin, end - begin);
}

}  // namespace variate::model
