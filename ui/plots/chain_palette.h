#pragma once
/// Colours of chains in every plot (a colour-blind-friendly palette, Okabe & Ito 2008),
/// and of the run a plot is compared with.

#include <QColor>

namespace variate::ui {

QColor chainColor(int chain);
QColor comparisonColor();
QColor divergenceColor();

}  // namespace variate::ui
