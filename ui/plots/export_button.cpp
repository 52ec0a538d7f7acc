#include "ui/plots/export_button.h"

#include <QFileDialog>
#include <QMessageBox>
#include <QToolButton>

#include "ui/plots/plot_export.h"

namespace variate::ui {

QToolButton* makeExportButton(QWidget* owner, std::function<bool(const QString& path, QString* error)> exportTo) {
  auto* button = new QToolButton;
  button->setIcon(QIcon(":/icons/export.svg"));
  button->setToolTip(QObject::tr("Export the plot as PNG, SVG or PDF"));
  QObject::connect(button, &QToolButton::clicked, owner, [owner, exportTo = std::move(exportTo)] {
    const QString path = QFileDialog::getSaveFileName(owner, QObject::tr("Export plot"), QString(), plotExportFilter());
    QString error;
    if (!path.isEmpty() && !exportTo(path, &error)) QMessageBox::warning(owner, QObject::tr("Export plot"), error);
  });
  return button;
}

}  // namespace variate::ui
