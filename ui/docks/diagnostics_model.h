#pragma once
/// The diagnostics table: one row per parameter with mean, sd, MCSE, quantiles, bulk and
/// tail ESS and split R-hat, coloured where the convergence rule of
/// diagnostics/thresholds.h flags them (R-hat ≥ 1.01, an ESS below 100 per chain). With a
/// comparison run, each statistic shows both runs side by side. An optimization's run
/// adds its mode as a last column.

#include <QAbstractTableModel>
#include <QHash>

#include "ui/document/run_data.h"

namespace variate::ui {

class DiagnosticsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Statistic { Mean, Sd, McseMean, Q5, Q50, Q95, EssBulk, EssTail, Rhat, StatisticCount };

  using QAbstractTableModel::QAbstractTableModel;

  /// Either may be empty.
  void setSummaries(const RunSummary& primary, const RunSummary* comparison,
                    const QString& primaryName = QString(), const QString& comparisonName = QString());
  bool comparing() const { return comparing_; }
  /// The mode's value per parameter name, shown in a last "Mode" column (no names: none).
  void setMode(const QStringList& names, const std::vector<double>& values);
  bool showsMode() const { return !mode_.isEmpty(); }
  /// The mode's value of a row's parameter (NaN where there is none).
  double modeValue(int row) const;
  /// The column of a statistic (of the comparison run's when `comparison`).
  int columnOf(Statistic statistic, bool comparison = false) const;

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  /// The value in a cell (NaN where missing), for sorting and tests.
  double value(int row, Statistic statistic, bool comparison = false) const;
  QString parameter(int row) const { return names_.value(row); }
  /// Whether a statistic of a run of `chains` chains warrants attention (the cell is
  /// coloured).
  static bool flagged(Statistic statistic, double value, int chains);

 private:
  const diagnostics::ParameterSummary* find(const std::vector<diagnostics::ParameterSummary>& rows,
                                            int row) const;
  Statistic statisticOf(int column, bool* comparison) const;

  QStringList names_;
  std::vector<diagnostics::ParameterSummary> primary_, comparison_;
  int primaryChains_ = 0, comparisonChains_ = 0;
  std::vector<int> comparisonRow_;  // row in comparison_ of each name, or -1
  bool comparing_ = false;
  QString primaryName_, comparisonName_;
  QHash<QString, double> mode_;
};

}  // namespace variate::ui
