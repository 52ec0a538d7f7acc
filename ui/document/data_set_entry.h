#pragma once
/// A data set of a project: CmdStan JSON with its variables' shapes.

#include <QList>
#include <QString>
#include <QStringList>

namespace variate::ui {

struct DataVariableInfo {
  QString name;
  QList<qint64> shape;  // empty for a scalar
  bool integer = false;
  /// "int", "real[8]", "real[3, 4]".
  QString typeText() const;
};

struct DataSetEntry {
  qint64 id = -1;
  QString name;
  QString json;
  QList<DataVariableInfo> variables;
  QString error;  // set when the text is not CmdStan JSON
};

/// Reads the variables and shapes of a data set's JSON (the store's reading of it).
DataSetEntry describeDataSet(qint64 id, const QString& name, const QString& json);

}  // namespace variate::ui
