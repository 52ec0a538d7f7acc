#pragma once
/// Per-chain trace plots of the chosen parameters, live while a run samples: warmup
/// shaded, divergent transitions marked, every series min/max-decimated to at most a few
/// thousand points, redrawn at most ~30 times a second.

#include <map>

#include "ui/plots/decimated_series.h"
#include "ui/plots/run_plot_panel.h"

class QCheckBox;
class QCPGraph;
class QCPItemRect;
class QCPLegend;

namespace variate::ui {

class TracePanel : public RunPlotPanel {
  Q_OBJECT

 public:
  explicit TracePanel(QWidget* parent = nullptr);

  /// Draws of `chain` on the plot of the first plotted parameter (0 if none).
  int plottedIterations(int chain) const;

 protected:
  void rebuild() override;
  void append(const DrawBlocks& blocks) override;
  void redraw() override;

 private:
  struct Row {  // one plotted parameter
    int column = -1;
    std::vector<DecimatedSeries> chains;
    QVector<double> divergenceX, divergenceY;
    int divergences = 0;         // after warmup, as CmdStan counts them
    int warmupDivergences = 0;   // during warmup, shown apart
    QList<QCPGraph*> graphs;
    QCPGraph* divergenceGraph = nullptr;
    QCPItemRect* warmup = nullptr;
  };
  void add(Row& row, const DrawBlock& block);
  void ensureChains(Row& row, int chains);

  std::vector<Row> rows_;
  QPointer<QCPLegend> legend_;  // in the first parameter's plot
  QCheckBox* showWarmup_;
};

}  // namespace variate::ui
