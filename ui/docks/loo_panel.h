#pragma once
/// Approximate leave-one-out cross-validation of the current run by PSIS (Vehtari, Gelman
/// & Gabry 2017; diagnostics/loo.h, as R's loo): the Pareto k of every observation with
/// the 0.5, 0.7 and 1 lines (above 0.7 that observation's estimate cannot be trusted),
/// elpd_loo, p_loo and looic with their standard errors, and the project's finished NUTS
/// runs ranked by elpd_loo as loo_compare ranks them. The pointwise log likelihood comes
/// from PredictionService, off the UI thread; a LOO stored with the run in the project
/// (by the studio or `variate loo --project`) is shown as stored.

#include "ui/docks/prediction_panel.h"

class QCustomPlot;
class QLabel;
class QTableWidget;

namespace variate::ui {

class LooPanel : public PredictionPanel {
  Q_OBJECT

 public:
  explicit LooPanel(PredictionService* predictions, QWidget* parent = nullptr);

  QCustomPlot* plot() const { return plot_; }
  /// Rows elpd_loo, p_loo, looic; columns: the estimate's name, its value, its SE.
  QTableWidget* estimates() const { return estimates_; }
  /// One row per compared run, best first: Run, elpd_diff, se_diff, elpd_loo, se_elpd_loo.
  QTableWidget* comparison() const { return comparison_; }
  bool exportTo(const QString& path, QString* error);

 protected:
  void present(const RunPtr& run, const RunPredictionPtr& prediction, const QString& why) override;

 private:
  void showLoo(const RunData& run, const RunPrediction& prediction);
  void showComparison();

  QLabel* caption_;
  QCustomPlot* plot_;
  QTableWidget* estimates_;
  QLabel* comparisonNote_;
  QTableWidget* comparison_;
};

}  // namespace variate::ui
