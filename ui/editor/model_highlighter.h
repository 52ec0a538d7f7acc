#pragma once
/// Syntax colours for the model language: comments, declaration keywords, distribution
/// and function names (the engine's own lists), numbers, and the `~` and `=` that make a
/// statement a random variable or a deterministic node.

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace variate::ui {

class ModelHighlighter : public QSyntaxHighlighter {
 public:
  explicit ModelHighlighter(QTextDocument* document);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  struct Rule {
    QRegularExpression pattern;
    QTextCharFormat format;
  };
  QList<Rule> rules_;
  QTextCharFormat comment_;
};

}  // namespace variate::ui
