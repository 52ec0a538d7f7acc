#include "ui/docks/density_panel.h"

#include <QHBoxLayout>
#include <QLabel>

#include <qcustomplot.h>

#include "ui/plots/chain_palette.h"

namespace variate::ui {

DensityPanel::DensityPanel(QWidget* parent) : DerivedPlotPanel(parent), caption_(new QLabel) {
  plot()->setObjectName("densityPlot");
  toolRow()->insertWidget(0, caption_);
}

std::vector<double> DensityPanel::drawsOf(const RunData& run, const QString& name, int chain) {
  const int column = run.columnIndex(name);
  if (column < 0) return {};
  std::vector<double> values;
  const int first = chain < 0 ? 0 : chain, last = chain < 0 ? static_cast<int>(run.chains.size()) : chain + 1;
  for (int c = first; c < last && c < static_cast<int>(run.chains.size()); ++c) {
    const ChainDraws& draws = run.chains[c];
    const int begin = draws.samplingIterations() > 0 ? draws.warmupIterations() : 0;
    // A density needs no more than ~20,000 draws per chain: thin evenly beyond that.
    const int stride = std::max(1, (draws.iterations() - begin) / 20000);
    draws.forEach(column, begin, draws.iterations(), [&](int iteration, double value) {
      if ((iteration - begin) % stride == 0) values.push_back(value);
    });
  }
  return values;
}

DensityCurve DensityPanel::pooledDensity(const QString& name, bool comparison) const {
  const RunPtr source = comparison ? this->comparison() : run();
  return source ? densityEstimate(drawsOf(*source, name, -1)) : DensityCurve();
}

void DensityPanel::layOut() {
  const QList<QCPAxisRect*> rects = resetAxisRects(plotted().size());
  for (int i = 0; i < rects.size(); ++i) {
    rects[i]->axis(QCPAxis::atBottom)->setLabel(plotted()[i]);
    rects[i]->axis(QCPAxis::atLeft)->setLabel(tr("density"));
  }
}

void DensityPanel::recompute() {
  const RunPtr compared = comparison();
  caption_->setText(compared ? tr("Solid: %1   Dashed: %2").arg(run()->name, compared->name)
                             : tr("%1: each chain, and all chains (dark)").arg(run()->name));
  auto other = compared ? std::make_shared<const RunData>(*compared) : nullptr;
  computeOffThread(
      [run = runSnapshot(), other, names = plotted()] {
        std::vector<Densities> densities;
        for (const QString& name : names) {
          Densities d;
          for (int c = 0; c < static_cast<int>(run->chains.size()) && !other; ++c) {
            d.chains.push_back(densityEstimate(drawsOf(*run, name, c)));
          }
          d.pooled = densityEstimate(drawsOf(*run, name, -1));
          if (other) d.compared = densityEstimate(drawsOf(*other, name, -1));
          densities.push_back(std::move(d));
        }
        return densities;
      },
      [this, comparing = compared != nullptr](const std::vector<Densities>& densities) {
        plotDensities(densities, comparing);
      });
}

void DensityPanel::plotDensities(const std::vector<Densities>& densities, bool comparing) {
  plot()->clearPlottables();
  for (int i = 0; i < static_cast<int>(densities.size()) && i < plot()->axisRectCount(); ++i) {
    QCPAxisRect* rect = plot()->axisRect(i);
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    const Densities& d = densities[static_cast<size_t>(i)];
    for (int c = 0; c < static_cast<int>(d.chains.size()); ++c) {
      QCPGraph* graph = plot()->addGraph(x, y);
      QColor color = chainColor(c);
      color.setAlpha(170);
      graph->setPen(QPen(color, 1));
      graph->setData(d.chains[static_cast<size_t>(c)].x, d.chains[static_cast<size_t>(c)].y, true);
    }
    QCPGraph* all = plot()->addGraph(x, y);
    all->setPen(QPen(QColor("#263238"), 2));
    all->setBrush(QColor(38, 50, 56, 35));
    all->setData(d.pooled.x, d.pooled.y, true);
    if (comparing) {
      all->setPen(QPen(chainColor(0), 2));
      all->setBrush(QColor(0, 114, 178, 40));
      QCPGraph* graph = plot()->addGraph(x, y);
      graph->setPen(QPen(comparisonColor(), 2, Qt::DashLine));
      graph->setData(d.compared.x, d.compared.y, true);
    }
    x->rescale();
    y->rescale();
    y->setRangeLower(0);
    y->setRangeUpper(y->range().upper * 1.05);
  }
}

}  // namespace variate::ui
