#pragma once
/// Posterior predictive check of the current run (Gelman et al., BDA3 Ch. 6; Gabry et
/// al. 2019, Sec. 5): the density of an observed variable's data (dark) over the
/// densities of replicated data sets y_rep drawn at posterior draws (light), and test
/// statistics T(y) against T(y_rep) with their posterior predictive p-values. For a run
/// of the prior's draws (the setting prior) the same panel is the prior predictive check. The y_rep
/// draws are computed once a NUTS run has finished, off the UI thread (PredictionService).

#include "ui/docks/prediction_panel.h"

class QComboBox;
class QCustomPlot;
class QLabel;
class QTableWidget;

namespace variate::ui {

class PredictiveCheckPanel : public PredictionPanel {
  Q_OBJECT

 public:
  explicit PredictiveCheckPanel(PredictionService* predictions, QWidget* parent = nullptr);

  QCustomPlot* plot() const { return plot_; }
  QTableWidget* statistics() const { return table_; }
  /// What is shown; nullptr before the current run's prediction is there.
  RunPredictionPtr prediction() const { return prediction_; }
  static int maxOverlaid() { return 50; }
  bool exportTo(const QString& path, QString* error);

 protected:
  void present(const RunPtr& run, const RunPredictionPtr& prediction, const QString& why) override;

 private:
  void showVariable(const ObservedPrediction& variable);

  RunPredictionPtr prediction_;
  QLabel* caption_;
  QComboBox* variable_;
  QCustomPlot* plot_;
  QTableWidget* table_;
};

}  // namespace variate::ui
