#pragma once
/// Posterior densities of the chosen parameters: one curve per chain and the pooled
/// density, with the compared run's pooled density overlaid (dashed). Densities use the
/// post-warmup draws (warmup draws until sampling starts) and are re-estimated at most
/// a few times a second.

#include "ui/plots/density_estimate.h"
#include "ui/plots/derived_plot_panel.h"

namespace variate::ui {

class DensityPanel : public DerivedPlotPanel {
  Q_OBJECT

 public:
  explicit DensityPanel(QWidget* parent = nullptr);

  /// The pooled density of a plotted parameter in the current or the compared run.
  DensityCurve pooledDensity(const QString& name, bool comparison = false) const;

 protected:
  void layOut() override;
  void recompute() override;
  void comparisonChanged() override { invalidate(); }

 private:
  static std::vector<double> drawsOf(const RunData& run, const QString& name, int chain);
  /// A plotted parameter's densities: each chain's (none beside a compared run), all
  /// chains', and the compared run's.
  struct Densities {
    std::vector<DensityCurve> chains;
    DensityCurve pooled, compared;
  };
  void plotDensities(const std::vector<Densities>& densities, bool comparing);

  class QLabel* caption_;
};

}  // namespace variate::ui
