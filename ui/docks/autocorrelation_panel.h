#pragma once
/// Autocorrelation of each chain's post-warmup draws by lag, per parameter (as
/// bayesplot's mcmc_acf): draws that stay correlated over many lags carry little
/// information each, which is what a low effective sample size says.

#include <vector>

#include "ui/plots/derived_plot_panel.h"

class QSpinBox;

namespace variate::ui {

/// rho[t] = gamma[t] / gamma[0] for t = 0 .. min(maxLag, n - 1), with Geyer's biased
/// autocovariance gamma (diagnostics/autocovariance.h); empty for a constant chain.
std::vector<double> autocorrelation(const std::vector<double>& chain, int maxLag);

class AutocorrelationPanel : public DerivedPlotPanel {
  Q_OBJECT

 public:
  explicit AutocorrelationPanel(QWidget* parent = nullptr);

  int maxLag() const;

 protected:
  void layOut() override;
  void recompute() override;

 private:
  /// rho[parameter][chain]: each chain's autocorrelations by lag.
  void plotAutocorrelations(const std::vector<std::vector<std::vector<double>>>& rho);

  QSpinBox* maxLag_;
};

}  // namespace variate::ui
