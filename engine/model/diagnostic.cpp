#include "engine/model/diagnostic.h"

#include <algorithm>
#include <cstdio>

#include "engine/model/utf8.h"

namespace variate::model {
namespace {

// Lines longer than this many bytes are shown as a window around the span.
constexpr std::size_t kMaxShownBytes = 160;
constexpr std::size_t kContextBefore = 60;

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

std::string hex_byte(unsigned char byte) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "<%02X>", byte);
  return buffer;
}

// The quoted source line and the marker line under it. `begin`/`end` are byte offsets
// into `line`; `end` may lie past the line when the span continues on later lines.
std::string render(std::string_view line, std::size_t begin, std::size_t end) {
  begin = std::min(begin, line.size());
  end = std::clamp(end, begin, line.size());

  std::size_t from = 0;
  std::size_t to = line.size();
  if (line.size() > kMaxShownBytes) {
    from = begin > kContextBefore ? begin - kContextBefore : 0;
    while (from < line.size() && is_continuation(line[from])) ++from;
    to = std::min(line.size(), from + kMaxShownBytes);
    while (to < line.size() && to > from && is_continuation(line[to])) --to;
  }

  std::string shown = from > 0 ? "..." : "";
  std::string marker(shown.size(), ' ');
  std::size_t column = shown.size();
  std::size_t i = from;
  while (i < to) {
    std::string piece;
    std::size_t length = 1;
    const auto byte = static_cast<unsigned char>(line[i]);
    if (byte == '\t') {
      piece.assign(8 - column % 8, ' ');
    } else if (byte < 0x20 || byte == 0x7F) {
      piece = hex_byte(byte);
    } else {
      const Utf8Char c = decode_utf8(line, i);
      if (c.length == 0) {
        piece = hex_byte(byte);
      } else {
        piece = std::string(line.substr(i, c.length));
        length = c.length;
      }
    }
    const std::size_t width = byte >= 0x80 && piece[0] != '<' ? 1 : piece.size();
    char mark = ' ';
    if (i == begin) {
      mark = '^';
    } else if (i > begin && i < end) {
      mark = '~';
    }
    marker += mark;
    if (width > 1) marker.append(width - 1, mark == '^' ? '~' : mark);
    shown += piece;
    column += width;
    i += length;
  }
  if (to < line.size()) shown += "...";
  if (begin >= to) {
    // The span starts at the end of the line (a line break or the end of the file).
    marker.resize(column, ' ');
    marker += '^';
  }
  while (!marker.empty() && marker.back() == ' ') marker.pop_back();
  return shown + "\n" + marker + "\n";
}

}  // namespace

const char* severity_name(Severity severity) {
  switch (severity) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: return "note";
  }
  return "error";
}

std::string format(const Source& source, const Diagnostic& diagnostic) {
  const Location at = source.location(diagnostic.span.begin);
  std::string text = source.name() + ":" + std::to_string(at.line) + ":" +
                     std::to_string(at.column) + ": " + severity_name(diagnostic.severity) +
                     ": " + diagnostic.message + "\n";
  const std::size_t line_start = source.line_start(at.line);
  const std::size_t end = std::max(diagnostic.span.end, diagnostic.span.begin);
  return text + render(source.line_text(at.line), diagnostic.span.begin - line_start,
                       end - line_start);
}

void Diagnostics::error(Span span, std::string message) {
  add(Severity::error, span, std::move(message));
}

void Diagnostics::warning(Span span, std::string message) {
  add(Severity::warning, span, std::move(message));
}

void Diagnostics::note(Span span, std::string message) {
  add(Severity::note, span, std::move(message));
}

void Diagnostics::add(Severity severity, Span span, std::string message) {
  if (stopped_) return;
  if (severity == Severity::error) {
    if (error_count_ == max_errors) {
      stopped_ = true;
      message = "too many errors; stopping";
    } else {
      ++error_count_;
    }
  }
  items_.push_back({severity, span, std::move(message)});
}

std::string Diagnostics::format(const Source& source) const {
  std::string text;
  for (const Diagnostic& diagnostic : items_) text += model::format(source, diagnostic);
  return text;
}

}  // namespace variate::model
