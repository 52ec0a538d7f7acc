#pragma once
/// Forest plot of the chosen parameters (as bayesplot's mcmc_intervals): for each, the
/// median of its post-warmup draws (a dot), the central 50% interval (thick) and the
/// central 90% interval (thin), over all chains or, optionally, for each chain beside
/// them. Quantiles are R's type 7 (diagnostics/quantiles.h), as the summary table's.

#include <vector>

#include "ui/plots/derived_plot_panel.h"

class QCheckBox;
class QCPErrorBars;
class QCPGraph;

namespace variate::ui {

class ForestPanel : public DerivedPlotPanel {
  Q_OBJECT

 public:
  explicit ForestPanel(QWidget* parent = nullptr);

  /// The graph of medians "all chains" or "chain N" (keys: rows, values: medians; the
  /// first plotted parameter on the top row), and its "50%" or "90%" intervals.
  QCPGraph* medians(const QString& name) const;
  QCPErrorBars* intervals(const QString& name, int percent) const;
  /// Row (key) of plotted parameter `index`: all chains, or chain `chain` (0-based).
  double rowOf(int index, int chain = -1) const;

 protected:
  void layOut() override;
  void recompute() override;

 private:
  /// groups[chain + 1][parameter]: the 5%, 25%, 50%, 75% and 95% quantiles of all chains'
  /// draws (chain -1), then of each chain's; empty where there are none.
  void plotIntervals(const std::vector<std::vector<std::vector<double>>>& groups);

  QCheckBox* perChain_;
  int chains_ = 0;  // chains with their own rows in the result being computed or shown
};

}  // namespace variate::ui
