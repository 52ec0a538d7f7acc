#pragma once
/// A bar above the model editor saying that a file changed outside the studio (an
/// editor, `git pull`), with the two choices and, on request or when edits in the editor
/// are at stake, the differences line by line. Nothing is replaced without a click.

#include <QFrame>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace variate::ui {

class OutsideChangeBar : public QFrame {
  Q_OBJECT

 public:
  explicit OutsideChangeBar(QWidget* parent = nullptr);
  /// Shows the bar: `message`, a button `acceptText` (accepted) and one `keepText` (kept);
  /// `differences` (lineDifferences) behind a Differences button, shown at once when
  /// `showDifferences`.
  void offer(const QString& message, const QString& acceptText, const QString& keepText, const QString& differences,
             bool showDifferences);
  QString message() const;
  QString differences() const;
  bool differencesShown() const;

 signals:
  void accepted();
  void kept();

 private:
  QLabel* message_;
  QPushButton* accept_;
  QPushButton* keep_;
  QPushButton* showDifferences_;
  QPlainTextEdit* differences_;
};

}  // namespace variate::ui
