#pragma once
/// The values of one data variable as a table: a scalar as one cell, a vector as one
/// column, a matrix as rows × columns (CmdStan JSON lists matrices by rows); arrays of
/// higher rank are shown flattened, one row per element with its 1-based index.

#include <QAbstractTableModel>
#include <QJsonValue>

namespace variate::ui {

class DataTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  using QAbstractTableModel::QAbstractTableModel;

  /// `value` is the variable's JSON value; `shape` its extents (empty for a scalar).
  void setVariable(const QJsonValue& value, const QList<qint64>& shape);

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  QList<qint64> shape_;
  QVector<QJsonValue> values_;  // row-major
  int rows_ = 0;
  int columns_ = 0;
};

}  // namespace variate::ui
