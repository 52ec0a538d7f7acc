#include "ui/docks/autocorrelation_panel.h"

#include <cmath>

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include <qcustomplot.h>
#include "engine/diagnostics/autocovariance.h"

#include "ui/plots/chain_palette.h"
#include "ui/plots/sampling_draws.h"

namespace variate::ui {

std::vector<double> autocorrelation(const std::vector<double>& chain, int maxLag) {
  const std::vector<double> gamma = diagnostics::autocovariance(chain);
  if (gamma.empty() || !(gamma[0] > 0)) return {};
  const size_t lags = std::min(gamma.size(), static_cast<size_t>(maxLag) + 1);
  std::vector<double> rho(lags);
  for (size_t t = 0; t < lags; ++t) rho[t] = gamma[t] / gamma[0];
  return rho;
}

AutocorrelationPanel::AutocorrelationPanel(QWidget* parent) : DerivedPlotPanel(parent), maxLag_(new QSpinBox) {
  plot()->setObjectName("autocorrelationPlot");
  maxLag_->setObjectName("maxLag");
  maxLag_->setRange(1, 1000);
  maxLag_->setValue(30);
  toolRow()->insertWidget(0, new QLabel(tr("Lags:")));
  toolRow()->insertWidget(1, maxLag_);
  connect(maxLag_, &QSpinBox::valueChanged, this, [this] { invalidate(); });
}

int AutocorrelationPanel::maxLag() const { return maxLag_->value(); }

void AutocorrelationPanel::layOut() {
  const QList<QCPAxisRect*> rects = resetAxisRects(plotted().size());
  for (int i = 0; i < rects.size(); ++i) {
    rects[i]->axis(QCPAxis::atLeft)->setLabel(plotted()[i]);
    if (i + 1 == rects.size()) rects[i]->axis(QCPAxis::atBottom)->setLabel(tr("lag (autocorrelation of each chain's draws)"));
  }
}

void AutocorrelationPanel::recompute() {
  computeOffThread(
      [run = runSnapshot(), names = plotted(), maxLag = maxLag()] {
        std::vector<std::vector<std::vector<double>>> rho;  // [parameter][chain][lag]
        for (const QString& name : names) {
          const diagnostics::Draws draws = samplingDraws(*run, run->columnIndex(name));
          rho.emplace_back();
          for (const auto& chain : draws) rho.back().push_back(autocorrelation(chain, maxLag));
        }
        return rho;
      },
      [this](const std::vector<std::vector<std::vector<double>>>& rho) { plotAutocorrelations(rho); });
}

void AutocorrelationPanel::plotAutocorrelations(const std::vector<std::vector<std::vector<double>>>& rho) {
  plot()->clearPlottables();
  for (int i = 0; i < static_cast<int>(rho.size()) && i < plot()->axisRectCount(); ++i) {
    QCPAxis* x = plot()->axisRect(i)->axis(QCPAxis::atBottom);
    QCPAxis* y = plot()->axisRect(i)->axis(QCPAxis::atLeft);
    double lowest = 0;
    for (size_t c = 0; c < rho[static_cast<size_t>(i)].size(); ++c) {
      const std::vector<double>& chain = rho[static_cast<size_t>(i)][c];
      QVector<double> lags, values;
      for (size_t t = 0; t < chain.size(); ++t) {
        lags << static_cast<double>(t);
        values << chain[t];
        if (std::isfinite(chain[t])) lowest = std::min(lowest, chain[t]);
      }
      QCPGraph* graph = plot()->addGraph(x, y);
      graph->setName(tr("chain %1").arg(c + 1));
      graph->setPen(QPen(chainColor(static_cast<int>(c)), 1.5));
      graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, chainColor(static_cast<int>(c)), 4));
      graph->setData(lags, values, true);
    }
    x->setRange(-0.5, maxLag() + 0.5);
    y->setRange(std::max(-1.05, lowest - 0.05), 1.05);
  }
}

}  // namespace variate::ui
