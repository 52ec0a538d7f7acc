#pragma once
/// Pairs of the chosen parameters (2 to 4) as a scatter matrix of their post-warmup
/// draws, divergent transitions in red (ShinyStan's bivariate plot; Gabry et al. 2019,
/// Fig. 5): divergences that gather in one region, such as the neck of a funnel, point to
/// where the sampler cannot follow the posterior. The diagonal holds each density.

#include <vector>

#include <QVector>

#include "ui/plots/density_estimate.h"
#include "ui/plots/derived_plot_panel.h"

namespace variate::ui {

class PairPanel : public DerivedPlotPanel {
  Q_OBJECT

 public:
  explicit PairPanel(QWidget* parent = nullptr);

  static int maxParameters() { return 4; }
  /// Parameters in the matrix: the first maxParameters() plotted ones.
  QStringList matrixParameters() const { return plotted().mid(0, maxParameters()); }
  /// The cell of row `row` (y: that parameter) and column `column` (x); null if none.
  /// Off the diagonal it holds the graphs "draws" (thinned evenly to at most 8,000) and
  /// "divergent" (all of them).
  QCPAxisRect* cell(int row, int column) const;

 protected:
  void layOut() override;
  void recompute() override;

 private:
  /// A cell of the matrix: a density on the diagonal, else the thinned draws and the
  /// divergent ones.
  struct Cell {
    DensityCurve density;
    QVector<double> xs, ys, divergentX, divergentY;
  };
  struct Pairs {
    int total = 0, divergences = 0;
    std::vector<Cell> cells;  // row by row
  };
  void plotPairs(const QString& runName, const Pairs& pairs);

  class QLabel* caption_;
};

}  // namespace variate::ui
