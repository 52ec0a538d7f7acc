#pragma once
/// Model source text: a file name and its bytes, with byte offsets mapped to 1-based
/// line:column positions for diagnostics.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace variate::model {

/// A half-open range [begin, end) of byte offsets into a Source's text.
struct Span {
  std::size_t begin = 0;
  std::size_t end = 0;
};

/// A 1-based line and column; the column counts bytes, as clang's does.
struct Location {
  std::size_t line = 1;
  std::size_t column = 1;
};

/// The text of one model file. Example:
///   Source source("eight_schools.vmod", "mu ~ Normal(0, 5)\n");
///   source.location(5);   // {1, 6}
class Source {
 public:
  /// A byte order mark at the start of `text` is dropped (offsets count from after it).
  Source(std::string name, std::string text);

  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  std::string_view text(Span span) const;

  /// The line and column of a byte offset; offsets past the end clamp to the end.
  Location location(std::size_t offset) const;
  std::size_t line_count() const { return line_starts_.size(); }
  /// Byte offset where a 1-based line starts.
  std::size_t line_start(std::size_t line) const;
  /// A 1-based line's text without its line break (a trailing '\r' is dropped too).
  std::string_view line_text(std::size_t line) const;

 private:
  std::string name_;
  std::string text_;
  std::vector<std::size_t> line_starts_;
};

}  // namespace variate::model
