#include "ui/modeling/language_words.h"

#include "engine/model/distribution_table.h"
#include "engine/model/functions.h"

namespace variate::ui {
namespace {

QStringList toList(const std::vector<std::string>& names) {
  QStringList list;
  for (const auto& name : names) list << QString::fromStdString(name);
  return list;
}

}  // namespace

QStringList distributionNames() { return toList(model::distribution_names()); }
QStringList functionNames() { return toList(model::function_names()); }

QStringList languageKeywords() {
  return {"data",    "real",          "int",      "ordered", "positive_ordered",
          "simplex", "cholesky_corr", "function", "vector",  "matrix"};
}

}  // namespace variate::ui
