#pragma once
/// The tool button beside a plot that asks for a file and exports the plot there (PNG,
/// SVG or PDF by the extension chosen), warning when that fails.

#include <functional>

#include <QString>

class QToolButton;
class QWidget;

namespace variate::ui {

/// `exportTo(path, &error)` writes the plot; `owner` parents the dialogs.
QToolButton* makeExportButton(QWidget* owner, std::function<bool(const QString& path, QString* error)> exportTo);

}  // namespace variate::ui
