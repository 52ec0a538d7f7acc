#pragma once
/// Compiler-style diagnostics for model text: "file:line:column: error: message", the
/// offending line and a caret under the span, as gcc and clang print them.

#include <cstddef>
#include <string>
#include <vector>

#include "engine/model/source.h"

namespace variate::model {

enum class Severity { error, warning, note };

/// "error", "warning", "note".
const char* severity_name(Severity severity);

struct Diagnostic {
  Severity severity = Severity::error;
  Span span;
  std::string message;
};

/// Formats one diagnostic, e.g.
///   model.vmod:1:4: error: expected '~' or '=' after 'mu', got 'Normal'
///   mu Normal(0, 5)
///      ^~~~~~
/// Invalid bytes and control characters in the quoted line show as <FF>; tabs expand to
/// 8 columns; a long line shows a window around the span.
std::string format(const Source& source, const Diagnostic& diagnostic);

/// The diagnostics of one pass over a source, in the order they were found. Errors are
/// capped: the one after the 100th is replaced by "too many errors; stopping" and later
/// ones are dropped, so that a garbage file yields a readable report.
class Diagnostics {
 public:
  static constexpr std::size_t max_errors = 100;

  void error(Span span, std::string message);
  void warning(Span span, std::string message);
  void note(Span span, std::string message);

  bool has_errors() const { return error_count_ > 0; }
  std::size_t error_count() const { return error_count_; }
  /// True once the error cap was hit; passes stop early then.
  bool stopped() const { return stopped_; }

  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const Diagnostic& operator[](std::size_t i) const { return items_[i]; }
  std::vector<Diagnostic>::const_iterator begin() const { return items_.begin(); }
  std::vector<Diagnostic>::const_iterator end() const { return items_.end(); }

  /// All diagnostics formatted one after the other.
  std::string format(const Source& source) const;

 private:
  void add(Severity severity, Span span, std::string message);

  std::vector<Diagnostic> items_;
  std::size_t error_count_ = 0;
  bool stopped_ = false;
};

}  // namespace variate::model
