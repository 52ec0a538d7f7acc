#include "ui/docks/data_table_model.h"

#include <QJsonArray>

namespace variate::ui {
namespace {

void flatten(const QJsonValue& value, QVector<QJsonValue>& out) {
  if (value.isArray()) {
    for (const QJsonValue& element : value.toArray()) flatten(element, out);
  } else {
    out << value;
  }
}

// 1-based index of the k-th row-major element of `shape`, as "2, 3".
QString indexText(qint64 k, const QList<qint64>& shape) {
  QStringList parts;
  for (int d = shape.size() - 1; d >= 0; --d) {
    const qint64 extent = std::max<qint64>(shape[d], 1);
    parts.prepend(QString::number(k % extent + 1));
    k /= extent;
  }
  return parts.join(", ");
}

}  // namespace

void DataTableModel::setVariable(const QJsonValue& value, const QList<qint64>& shape) {
  beginResetModel();
  shape_ = shape;
  values_.clear();
  flatten(value, values_);
  if (shape.size() == 2) {
    rows_ = static_cast<int>(shape[0]);
    columns_ = static_cast<int>(shape[1]);
  } else {
    rows_ = values_.size();
    columns_ = 1;
  }
  endResetModel();
}

int DataTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : rows_; }
int DataTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : columns_; }

QVariant DataTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || role != Qt::DisplayRole) {
    if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
  }
  const int k = index.row() * columns_ + index.column();
  if (k >= values_.size()) return {};
  const QJsonValue& v = values_[k];
  return v.isDouble() ? QVariant(v.toDouble()) : QVariant(v.toVariant().toString());
}

QVariant DataTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole) return {};
  if (orientation == Qt::Horizontal) return shape_.size() == 2 ? QString::number(section + 1) : tr("value");
  if (shape_.isEmpty()) return QString();
  return shape_.size() == 2 ? QString::number(section + 1) : indexText(section, shape_);
}

}  // namespace variate::ui
