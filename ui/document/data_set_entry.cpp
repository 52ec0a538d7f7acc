#include "ui/document/data_set_entry.h"

#include "engine/store/data_set_shapes.h"
#include "engine/store/project_error.h"

namespace variate::ui {

QString DataVariableInfo::typeText() const {
  QString text = integer ? "int" : "real";
  if (shape.isEmpty()) return text;
  QStringList extents;
  for (qint64 extent : shape) extents << QString::number(extent);
  return text + "[" + extents.join(", ") + "]";
}

DataSetEntry describeDataSet(qint64 id, const QString& name, const QString& json) {
  DataSetEntry entry{id, name, json, {}, {}};
  try {
    for (const auto& variable : store::data_set_shapes(name.toStdString(), json.toStdString())) {
      DataVariableInfo info;
      info.name = QString::fromStdString(variable.name);
      for (auto extent : variable.shape) info.shape << extent;
      info.integer = variable.integer;
      entry.variables << info;
    }
  } catch (const store::ProjectError& e) {
    entry.error = QString::fromStdString(e.what());
  }
  return entry;
}

}  // namespace variate::ui
