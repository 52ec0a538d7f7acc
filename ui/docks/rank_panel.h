#pragma once
/// Rank plots (Vehtari, Gelman, Simpson, Carpenter & Bürkner 2021, Sec. 4.3): every
/// post-warmup draw of a parameter is ranked among the draws of all chains, and each
/// chain's ranks are counted in bins. Chains that sample the same distribution give flat,
/// overlapping histograms near the dashed line; a chain stuck apart piles up at one end.

#include <vector>

#include "ui/plots/derived_plot_panel.h"

namespace variate::ui {

/// counts[chain][bin] of the ranks (1..S among all S draws, ties averaged) of each
/// chain's draws, `bins` bins of equal width over 1..S.
std::vector<std::vector<int>> rankHistograms(const std::vector<std::vector<double>>& draws, int bins);

class RankPanel : public DerivedPlotPanel {
  Q_OBJECT

 public:
  explicit RankPanel(QWidget* parent = nullptr);

  static int bins() { return 20; }

 protected:
  void layOut() override;
  void recompute() override;

 private:
  /// One plotted parameter's ranks: each chain's counts (none for too few draws).
  struct Ranks {
    int perChain = 0;
    double total = 0;
    std::vector<std::vector<int>> counts;
  };
  void plotRanks(const std::vector<Ranks>& ranks);
};

}  // namespace variate::ui
