#pragma once
/// NUTS energy diagnostic (Betancourt 2016; Betancourt 2017, Sec. 6.2): the marginal
/// distribution of the Hamiltonian's energy (centred per chain) overlaid with the
/// distribution of its changes between iterations. When the transitions are much
/// narrower than the marginal, momentum resampling cannot explore the energy levels and
/// the sampler misses the tails; the E-BFMI of each chain (below 0.3: a problem) says how
/// much narrower.

#include <vector>

#include "ui/plots/derived_plot_panel.h"
#include "ui/plots/histogram.h"

namespace variate::ui {

class EnergyPanel : public DerivedPlotPanel {
  Q_OBJECT

 public:
  explicit EnergyPanel(QWidget* parent = nullptr);

  static int bins() { return 40; }
  /// E-BFMI of each chain, as shown.
  std::vector<double> ebfmiPerChain() const { return ebfmi_; }
  /// The bars "energy" (E minus its chain's mean) and "transitions" (E_i - E_{i-1}).
  class QCPBars* bars(const QString& name) const;

 protected:
  void layOut() override;
  void recompute() override;

 private:
  /// What the sampler's energies give: each chain's E-BFMI and the two histograms on
  /// shared bins (none before a chain has two draws).
  struct Energies {
    std::vector<double> ebfmi;
    Histogram marginal, transitions;
  };
  void plotEnergies(const QString& runName, const Energies& energies);

  class QLabel* caption_;
  std::vector<double> ebfmi_;
};

}  // namespace variate::ui
