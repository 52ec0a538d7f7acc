#include "ui/plots/plot_export.h"

#include <QFileInfo>
#include <QSvgGenerator>

#include <qcustomplot.h>

namespace variate::ui {

QString plotExportFilter() {
  return QObject::tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)");
}

bool exportPlot(QCustomPlot* plot, const QString& path, QString* error) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  const int width = std::max(plot->width(), 200), height = std::max(plot->height(), 150);
  bool ok = false;
  if (suffix == "png") {
    ok = plot->savePng(path, width, height, 2.0);
  } else if (suffix == "pdf") {
    ok = plot->savePdf(path, width, height);
  } else if (suffix == "svg") {
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(QSize(width, height));
    svg.setViewBox(QRect(0, 0, width, height));
    svg.setTitle(plot->objectName());
    QCPPainter painter;
    ok = painter.begin(&svg);
    if (ok) {
      plot->toPainter(&painter, width, height);
      ok = painter.end();
    }
  } else {
    *error = QObject::tr("Cannot export as '%1': choose .png, .svg or .pdf").arg(suffix);
    return false;
  }
  if (!ok) *error = QObject::tr("Could not write %1").arg(path);
  return ok;
}

}  // namespace variate::ui
