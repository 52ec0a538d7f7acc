#include "ui/docks/diagnostics_model.h"

#include <cmath>

#include <QBrush>
#include <QColor>

#include "engine/diagnostics/thresholds.h"

namespace variate::ui {
namespace {

const char* const kHeaders[] = {"Mean", "SD", "MCSE", "5%", "50%", "95%", "ESS bulk", "ESS tail", "R-hat"};

double field(const diagnostics::ParameterSummary& s, DiagnosticsModel::Statistic statistic) {
  switch (statistic) {
    case DiagnosticsModel::Mean: return s.mean;
    case DiagnosticsModel::Sd: return s.sd;
    case DiagnosticsModel::McseMean: return s.mcse_mean;
    case DiagnosticsModel::Q5: return s.q5;
    case DiagnosticsModel::Q50: return s.q50;
    case DiagnosticsModel::Q95: return s.q95;
    case DiagnosticsModel::EssBulk: return s.ess_bulk;
    case DiagnosticsModel::EssTail: return s.ess_tail;
    case DiagnosticsModel::Rhat: return s.r_hat;
    default: return std::nan("");
  }
}

QString format(DiagnosticsModel::Statistic statistic, double value) {
  if (std::isnan(value)) return QStringLiteral("–");
  if (statistic == DiagnosticsModel::EssBulk || statistic == DiagnosticsModel::EssTail) {
    return QString::number(std::round(value), 'f', 0);
  }
  if (statistic == DiagnosticsModel::Rhat) return QString::number(value, 'f', 3);
  return QString::number(value, 'g', 3);
}

}  // namespace

void DiagnosticsModel::setSummaries(const RunSummary& primary, const RunSummary* comparison,
                                    const QString& primaryName, const QString& comparisonName) {
  QStringList names;
  for (const auto& row : primary.rows) names << QString::fromStdString(row.name);
  if (comparison) {
    for (const auto& row : comparison->rows) {
      const QString name = QString::fromStdString(row.name);
      if (!names.contains(name)) names << name;
    }
  }
  // A live update of the same table changes values only: views keep scroll and selection.
  const bool sameShape = names == names_ && (comparison != nullptr) == comparing_ &&
                         primaryName == primaryName_ && comparisonName == comparisonName_;
  if (!sameShape) beginResetModel();
  primary_ = primary.rows;
  comparison_ = comparison ? comparison->rows : std::vector<diagnostics::ParameterSummary>();
  primaryChains_ = primary.chains;
  comparisonChains_ = comparison ? comparison->chains : 0;
  comparing_ = comparison != nullptr;
  primaryName_ = primaryName;
  comparisonName_ = comparisonName;
  names_ = names;
  comparisonRow_.assign(names_.size(), -1);
  for (int i = 0; i < static_cast<int>(comparison_.size()); ++i) {
    comparisonRow_[names_.indexOf(QString::fromStdString(comparison_[i].name))] = i;
  }
  if (!sameShape) {
    endResetModel();
  } else if (!names_.isEmpty()) {
    emit dataChanged(index(0, 1), index(rowCount() - 1, columnCount() - 1));
  }
}

void DiagnosticsModel::setMode(const QStringList& names, const std::vector<double>& values) {
  QHash<QString, double> mode;
  for (int i = 0; i < names.size() && i < static_cast<int>(values.size()); ++i) mode[names[i]] = values[i];
  if (mode == mode_) return;
  beginResetModel();
  mode_ = mode;
  endResetModel();
}

double DiagnosticsModel::modeValue(int row) const { return mode_.value(names_.value(row), std::nan("")); }

int DiagnosticsModel::columnOf(Statistic statistic, bool comparison) const {
  return comparing_ ? 1 + 2 * statistic + (comparison ? 1 : 0) : 1 + statistic;
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : names_.size(); }

int DiagnosticsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : 1 + StatisticCount * (comparing_ ? 2 : 1) + (mode_.isEmpty() ? 0 : 1);
}

DiagnosticsModel::Statistic DiagnosticsModel::statisticOf(int column, bool* comparison) const {
  const int k = column - 1;
  *comparison = comparing_ && k % 2 == 1;
  return static_cast<Statistic>(comparing_ ? k / 2 : k);
}

const diagnostics::ParameterSummary* DiagnosticsModel::find(
    const std::vector<diagnostics::ParameterSummary>& rows, int row) const {
  if (&rows == &comparison_) {
    const int at = comparisonRow_[row];
    return at < 0 ? nullptr : &comparison_[at];
  }
  return row < static_cast<int>(primary_.size()) ? &primary_[row] : nullptr;
}

double DiagnosticsModel::value(int row, Statistic statistic, bool comparison) const {
  const auto* summary = find(comparison ? comparison_ : primary_, row);
  return summary ? field(*summary, statistic) : std::nan("");
}

bool DiagnosticsModel::flagged(Statistic statistic, double value, int chains) {
  if (statistic == Rhat) return diagnostics::rhat_flagged(value);
  if (statistic == EssBulk || statistic == EssTail) return diagnostics::ess_flagged(value, chains);
  return false;
}

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  if (index.column() == 0) {
    if (role == Qt::DisplayRole || role == Qt::UserRole) return names_[index.row()];
    return {};
  }
  if (!mode_.isEmpty() && index.column() == columnCount() - 1) {
    const double v = modeValue(index.row());
    switch (role) {
      case Qt::DisplayRole: return std::isnan(v) ? QStringLiteral("–") : QString::number(v, 'g', 4);
      case Qt::UserRole: return std::isnan(v) ? QVariant() : QVariant(v);
      case Qt::TextAlignmentRole: return int(Qt::AlignRight | Qt::AlignVCenter);
      case Qt::ToolTipRole: return tr("The mode L-BFGS found");
      default: return {};
    }
  }
  bool comparison = false;
  const Statistic statistic = statisticOf(index.column(), &comparison);
  const double v = value(index.row(), statistic, comparison);
  const int chains = comparison ? comparisonChains_ : primaryChains_;
  switch (role) {
    case Qt::DisplayRole: return format(statistic, v);
    case Qt::UserRole: return std::isnan(v) ? QVariant() : QVariant(v);  // sort key
    case Qt::TextAlignmentRole: return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::BackgroundRole:
      if (!flagged(statistic, v, chains)) return comparison ? QBrush(QColor(0, 0, 0, 10)) : QVariant();
      return QBrush(statistic == Rhat ? QColor("#ffcdd2") : QColor("#ffe0b2"));
    case Qt::ToolTipRole:
      if (statistic == Rhat && flagged(statistic, v, chains)) {
        return tr("R-hat ≥ %1: the chains have not mixed").arg(diagnostics::kMaxRhat);
      }
      if (flagged(statistic, v, chains)) {
        return tr("ESS below %1 (%2 per chain): too few effective draws for reliable estimates")
            .arg(diagnostics::min_ess(chains))
            .arg(diagnostics::kMinEssPerChain);
      }
      return {};
    default: return {};
  }
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  if (section == 0) return tr("Parameter");
  if (!mode_.isEmpty() && section == columnCount() - 1) return tr("Mode");
  bool comparison = false;
  const Statistic statistic = statisticOf(section, &comparison);
  const QString header = tr(kHeaders[statistic]);
  if (!comparing_) return header;
  return header + "\n" + (comparison ? comparisonName_ : primaryName_);
}

}  // namespace variate::ui
