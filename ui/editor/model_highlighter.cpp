#include "ui/editor/model_highlighter.h"

#include "ui/modeling/language_words.h"

namespace variate::ui {
namespace {

QTextCharFormat textFormat(const QColor& color, bool bold = false, bool italic = false) {
  QTextCharFormat f;
  f.setForeground(color);
  if (bold) f.setFontWeight(QFont::Bold);
  f.setFontItalic(italic);
  return f;
}

QRegularExpression words(const QStringList& names) {
  QStringList escaped;
  for (const auto& name : names) escaped << QRegularExpression::escape(name);
  return QRegularExpression("\\b(" + escaped.join('|') + ")\\b");
}

}  // namespace

ModelHighlighter::ModelHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {
  rules_ << Rule{QRegularExpression("\\b\\d+(\\.\\d*)?([eE][-+]?\\d+)?\\b"), textFormat(QColor("#b35900"))};
  rules_ << Rule{words(functionNames()), textFormat(QColor("#00796b"))};
  rules_ << Rule{words(distributionNames()), textFormat(QColor("#7b1fa2"), true)};
  rules_ << Rule{words(languageKeywords()), textFormat(QColor("#1565c0"), true)};
  rules_ << Rule{QRegularExpression("[~=]"), textFormat(QColor("#c62828"), true)};
  comment_ = textFormat(QColor("#757575"), false, true);
}

void ModelHighlighter::highlightBlock(const QString& text) {
  const int hash = text.indexOf('#');
  const int codeEnd = hash < 0 ? text.size() : hash;
  for (const Rule& rule : rules_) {
    auto matches = rule.pattern.globalMatch(text.left(codeEnd));
    while (matches.hasNext()) {
      const auto match = matches.next();
      setFormat(match.capturedStart(), match.capturedLength(), rule.format);
    }
  }
  if (hash >= 0) setFormat(hash, text.size() - hash, comment_);
}

}  // namespace variate::ui
