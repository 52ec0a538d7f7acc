#pragma once
/// F1: the model language in brief, the panels and the keyboard shortcuts.

#include <QDialog>

namespace variate::ui {

class HelpDialog : public QDialog {
  Q_OBJECT

 public:
  explicit HelpDialog(QWidget* parent = nullptr);
  /// The help text (HTML).
  static QString html();
};

}  // namespace variate::ui
