#include "ui/document/line_diff.h"

#include <algorithm>
#include <vector>

#include <QStringList>

namespace variate::ui {
namespace {

constexpr size_t kContext = 2;

enum class Kind { same, removed, added };

struct Line {
  Kind kind;
  QString text;
};

// The longest common subsequence's table, then a walk from the start: models are short
// (a few hundred lines), so the quadratic table is small.
std::vector<Line> editScript(const QStringList& a, const QStringList& b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> common(n + 1, std::vector<int>(m + 1, 0));
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;) {
      common[i][j] = a[i] == b[j] ? common[i + 1][j + 1] + 1 : std::max(common[i + 1][j], common[i][j + 1]);
    }
  }
  std::vector<Line> script;
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) {
      script.push_back({Kind::same, a[i++]});
      ++j;
    } else if (j < m && (i == n || common[i][j + 1] >= common[i + 1][j])) {
      script.push_back({Kind::added, b[j++]});
    } else {
      script.push_back({Kind::removed, a[i++]});
    }
  }
  return script;
}

}  // namespace

QString lineDifferences(const QString& before, const QString& after) {
  const std::vector<Line> script = editScript(before.split('\n'), after.split('\n'));
  std::vector<bool> shown(script.size(), false);
  bool changed = false;
  for (size_t k = 0; k < script.size(); ++k) {
    if (script[k].kind == Kind::same) continue;
    changed = true;
    const size_t from = k >= kContext ? k - kContext : 0;
    for (size_t c = from; c < std::min(script.size(), k + kContext + 1); ++c) shown[c] = true;
  }
  if (!changed) return {};
  QStringList lines;
  for (size_t k = 0; k < script.size(); ++k) {
    if (!shown[k]) {
      if (lines.isEmpty() || lines.back() != "…") lines << "…";
      continue;
    }
    const char* mark = script[k].kind == Kind::same ? "  " : script[k].kind == Kind::removed ? "- " : "+ ";
    lines << mark + script[k].text;
  }
  return lines.join('\n');
}

}  // namespace variate::ui
