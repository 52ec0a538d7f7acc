#pragma once
/// Saving a plot as PNG, SVG or PDF (chosen by the file's extension).

#include <QString>

class QCustomPlot;

namespace variate::ui {

/// File-dialog filter for the formats exportPlot writes.
QString plotExportFilter();

/// Writes `plot` at its current size (PNG at twice the resolution); false with a message.
bool exportPlot(QCustomPlot* plot, const QString& path, QString* error);

}  // namespace variate::ui
