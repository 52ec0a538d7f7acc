#include "ui/docks/log_panel.h"

#include <QDateTime>
#include <QFontDatabase>

namespace variate::ui {

LogPanel::LogPanel(QWidget* parent) : QPlainTextEdit(parent) {
  setObjectName("logPanel");
  setReadOnly(true);
  setMaximumBlockCount(5000);
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  setLineWrapMode(QPlainTextEdit::WidgetWidth);
}

void LogPanel::append(const QString& message) {
  appendPlainText(QDateTime::currentDateTime().toString("HH:mm:ss  ") + message.trimmed());
}

}  // namespace variate::ui
