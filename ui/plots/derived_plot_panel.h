#pragma once
/// A plot of estimates from all of a run's draws (densities, pairs, ranks, autocorrelations,
/// energies, intervals): new draws only mark it stale, and it is recomputed from the
/// run's draws at most every 250 ms, since such statistics need many draws to change
/// visibly and recomputing them on every batch would take the UI thread's time.

#include <QElapsedTimer>

#include "ui/plots/run_plot_panel.h"

namespace variate::ui {

class DerivedPlotPanel : public RunPlotPanel {
  Q_OBJECT

 public:
  using RunPlotPanel::RunPlotPanel;

 signals:
  /// After each recomputation from the run's draws (tests wait for it).
  void recomputed();

 protected:
  /// Sets up the axes for plotted() (the run or the parameters changed).
  virtual void layOut() = 0;
  /// Replaces the plotted data with what the run's draws give now.
  virtual void recompute() = 0;
  /// An option of the panel changed: recompute soon.
  void invalidate();

 private:
  void rebuild() final;
  void append(const DrawBlocks&) final { dirty_ = true; }
  void redraw() final;

  QElapsedTimer sinceRecompute_;
  bool dirty_ = true;
};

}  // namespace variate::ui
