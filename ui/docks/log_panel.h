#pragma once
/// The log: what the studio did and what the engine said (run starts and ends, warnings,
/// failures), time-stamped.

#include <QPlainTextEdit>

namespace variate::ui {

class LogPanel : public QPlainTextEdit {
  Q_OBJECT

 public:
  explicit LogPanel(QWidget* parent = nullptr);

 public slots:
  void append(const QString& message);
};

}  // namespace variate::ui
