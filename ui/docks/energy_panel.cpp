#include "ui/docks/energy_panel.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <QHBoxLayout>
#include <QLabel>

#include <qcustomplot.h>
#include "engine/diagnostics/ebfmi.h"

#include "ui/plots/histogram.h"
#include "ui/plots/parameter_picker.h"
#include "ui/plots/sampling_draws.h"

namespace variate::ui {
namespace {

constexpr double kLowEbfmi = 0.3;  // Stan's threshold

QCPBars* addBars(QCustomPlot* plot, const QString& name, const Histogram& h, const QColor& color) {
  auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
  bars->setName(name);
  bars->setWidth(h.width);
  bars->setPen(QPen(color.darker(130), 0.5));
  bars->setBrush(QColor(color.red(), color.green(), color.blue(), 120));
  QVector<double> centers, counts;
  for (int b = 0; b < static_cast<int>(h.counts.size()); ++b) {
    centers << h.center(b);
    counts << h.counts[static_cast<size_t>(b)];
  }
  bars->setData(centers, counts, true);
  return bars;
}

}  // namespace

EnergyPanel::EnergyPanel(QWidget* parent) : DerivedPlotPanel(parent), caption_(new QLabel) {
  plot()->setObjectName("energyPlot");
  caption_->setObjectName("energyCaption");
  toolRow()->insertWidget(0, caption_);
  picker()->hide();  // the energy belongs to the sampler, not to a parameter
  plot()->setAutoAddPlottableToLegend(true);
}

QCPBars* EnergyPanel::bars(const QString& name) const {
  for (int i = 0; i < plot()->plottableCount(); ++i) {
    auto* bars = qobject_cast<QCPBars*>(plot()->plottable(i));
    if (bars && bars->name() == name) return bars;
  }
  return nullptr;
}

void EnergyPanel::layOut() {
  // The default axis rect of a QCustomPlot, with a legend naming the two histograms.
  plot()->clearPlottables();
  plot()->plotLayout()->clear();
  auto* rect = new QCPAxisRect(plot());
  plot()->plotLayout()->addElement(0, 0, rect);
  plot()->xAxis = rect->axis(QCPAxis::atBottom);
  plot()->yAxis = rect->axis(QCPAxis::atLeft);
  plot()->xAxis->setLabel(tr("energy (centred per chain) and energy transitions"));
  plot()->yAxis->setLabel(tr("draws"));
  plot()->legend = new QCPLegend;
  rect->insetLayout()->addElement(plot()->legend, Qt::AlignTop | Qt::AlignRight);
  plot()->legend->setVisible(true);
}

void EnergyPanel::recompute() {
  plot()->clearPlottables();
  ebfmi_.clear();
  if (services::draws_are_independent(run()->config.method)) {
    caption_->setText(tr("%1 draws come from an approximation: there is no sampler energy.")
                          .arg(methodName(run()->config.method)));
    return;
  }
  computeOffThread(
      [run = runSnapshot()] {
        const diagnostics::Draws energies = samplingEnergies(*run);
        Energies result;
        std::vector<double> marginal, transitions;
        for (const std::vector<double>& e : energies) {
          if (e.size() < 2) continue;
          const double mean = std::accumulate(e.begin(), e.end(), 0.0) / static_cast<double>(e.size());
          for (size_t i = 0; i < e.size(); ++i) {
            marginal.push_back(e[i] - mean);
            if (i > 0) transitions.push_back(e[i] - e[i - 1]);
          }
          result.ebfmi.push_back(diagnostics::ebfmi(e));
        }
        if (marginal.empty()) return result;
        // One range for both, so the widths compare at a glance.
        const auto [lo1, hi1] = std::minmax_element(marginal.begin(), marginal.end());
        double lower = *lo1, upper = *hi1;
        if (!transitions.empty()) {
          const auto [lo2, hi2] = std::minmax_element(transitions.begin(), transitions.end());
          lower = std::min(lower, *lo2);
          upper = std::max(upper, *hi2);
        }
        if (!(lower < upper)) upper = lower + 1;
        result.marginal = histogram(marginal, bins(), lower, upper);
        result.transitions = histogram(transitions, bins(), lower, upper);
        return result;
      },
      [this, name = run()->name](const Energies& energies) { plotEnergies(name, energies); });
}

void EnergyPanel::plotEnergies(const QString& runName, const Energies& energies) {
  plot()->clearPlottables();
  ebfmi_ = energies.ebfmi;
  if (energies.marginal.counts.empty()) {
    caption_->setText(tr("%1: no sampler draws yet").arg(runName));
    return;
  }
  QStringList perChain;
  for (const double value : ebfmi_) {
    const QString text = QString("%1").arg(value, 0, 'f', 2);
    perChain << (value < kLowEbfmi ? QString("<b style='color:#d50000'>%1</b>").arg(text) : text);
  }
  caption_->setText(tr("%1: E-BFMI per chain %2 (below %3: the sampler may not explore the tails)")
                        .arg(runName, perChain.join(", "))
                        .arg(kLowEbfmi));
  addBars(plot(), tr("energy"), energies.marginal, QColor("#0072B2"));
  addBars(plot(), tr("transitions"), energies.transitions, QColor("#E69F00"));
  plot()->xAxis->rescale();
  plot()->yAxis->rescale();
  plot()->yAxis->setRangeLower(0);
  plot()->yAxis->setRangeUpper(plot()->yAxis->range().upper * 1.05);
}

}  // namespace variate::ui
