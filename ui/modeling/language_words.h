#pragma once
/// The names the model language knows, for highlighting and completion.

#include <QStringList>

namespace variate::ui {

QStringList distributionNames();
QStringList functionNames();
/// Declaration keywords and constraint types: data, real, int, ordered, simplex...
QStringList languageKeywords();

}  // namespace variate::ui
