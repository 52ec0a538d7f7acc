#include "ui/plots/chain_palette.h"

namespace variate::ui {

QColor chainColor(int chain) {
  static const QColor colors[] = {QColor("#0072B2"), QColor("#E69F00"), QColor("#009E73"), QColor("#CC79A7"),
                                  QColor("#56B4E9"), QColor("#D55E00"), QColor("#F0E442"), QColor("#000000")};
  return colors[chain % 8];
}

QColor comparisonColor() { return QColor("#424242"); }
QColor divergenceColor() { return QColor("#d50000"); }

}  // namespace variate::ui
