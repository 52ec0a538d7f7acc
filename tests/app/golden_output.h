#pragma once
// What a command prints, held against a fixture of the exact text (tests/data/output). A
// fixture line is literal except for
//   {int}   a count of at most 7 digits (an unsigned wrap or a double printed as %d fails)
//   {real}  a finite number as printf's %g or %f writes it (inf and nan fail)
//   {text}  anything, for what varies by run (a path, a time)
// and runs of spaces, which match any run of spaces (tables align to their widest cell).
// A line "..." stands for any number of lines; a line "{repeat} PATTERN" for any number of
// lines that each match PATTERN (a trace whose length varies by machine).

#include <QtTest/QtTest>

namespace app_test {

inline QRegularExpression golden_line_pattern(const QString& fixture_line) {
  static const QRegularExpression token(R"(\{int\}|\{real\}|\{text\}| +)");
  QString pattern = "^";
  qsizetype at = 0;
  for (auto it = token.globalMatch(fixture_line); it.hasNext();) {
    const QRegularExpressionMatch m = it.next();
    pattern += QRegularExpression::escape(fixture_line.mid(at, m.capturedStart() - at));
    const QString t = m.captured();
    if (t == "{int}") pattern += "[0-9]{1,7}";
    else if (t == "{real}") pattern += R"(-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?)";
    else if (t == "{text}") pattern += ".*";
    else pattern += " +";
    at = m.capturedEnd();
  }
  pattern += QRegularExpression::escape(fixture_line.mid(at)) + "$";
  return QRegularExpression(pattern);
}

namespace detail {
inline bool golden_matches(const QStringList& fixture, qsizetype f, const QStringList& actual, qsizetype a,
                           qsizetype& deepest) {
  deepest = std::max(deepest, a);
  if (f == fixture.size()) return a == actual.size();
  if (fixture[f] == "...") {
    for (qsizetype skip = a; skip <= actual.size(); ++skip) {
      if (golden_matches(fixture, f + 1, actual, skip, deepest)) return true;
    }
    return false;
  }
  if (fixture[f].startsWith("{repeat} ")) {
    const QRegularExpression pattern = golden_line_pattern(fixture[f].mid(9));
    for (qsizetype next = a;; ++next) {
      if (golden_matches(fixture, f + 1, actual, next, deepest)) return true;
      if (next == actual.size() || !pattern.match(actual[next]).hasMatch()) return false;
      deepest = std::max(deepest, next + 1);
    }
  }
  if (a == actual.size() || !golden_line_pattern(fixture[f]).match(actual[a]).hasMatch()) return false;
  return golden_matches(fixture, f + 1, actual, a + 1, deepest);
}
}  // namespace detail

/// Empty when `actual` (a command's output) matches `fixture`; otherwise the first output
/// line that no fixture line accounts for, with its number.
inline QString golden_mismatch(const QString& fixture, const QString& actual) {
  const QStringList fixture_lines = fixture.split('\n');
  const QStringList actual_lines = actual.split('\n');
  qsizetype deepest = 0;
  if (detail::golden_matches(fixture_lines, 0, actual_lines, 0, deepest)) return {};
  if (deepest >= actual_lines.size()) return "the output ends before the fixture does";
  return QString("output line %1 matches no fixture line: \"%2\"").arg(deepest + 1).arg(actual_lines[deepest]);
}

}  // namespace app_test
