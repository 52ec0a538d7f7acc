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
  plot()->clearPlottables();
  const RunPtr compared = comparison();
  caption_->setText(compared ? tr("Solid: %1   Dashed: %2").arg(run()->name, compared->name)
                             : tr("%1: each chain, and all chains (dark)").arg(run()->name));
  for (int i = 0; i < plotted().size() && i < plot()->axisRectCount(); ++i) {
    QCPAxisRect* rect = plot()->axisRect(i);
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    const QString& name = plotted()[i];
    const int chains = static_cast<int>(run()->chains.size());
    for (int c = 0; c < chains && !compared; ++c) {
      const DensityCurve curve = densityEstimate(drawsOf(*run(), name, c));
      QCPGraph* graph = plot()->addGraph(x, y);
      QColor color = chainColor(c);
      color.setAlpha(170);
      graph->setPen(QPen(color, 1));
      graph->setData(curve.x, curve.y, true);
    }
    const DensityCurve pooled = pooledDensity(name);
    QCPGraph* all = plot()->addGraph(x, y);
    all->setPen(QPen(QColor("#263238"), 2));
    all->setBrush(QColor(38, 50, 56, 35));
    all->setData(pooled.x, pooled.y, true);
    if (compared) {
      all->setPen(QPen(chainColor(0), 2));
      all->setBrush(QColor(0, 114, 178, 40));
      const DensityCurve other = pooledDensity(name, true);
      QCPGraph* graph = plot()->addGraph(x, y);
      graph->setPen(QPen(comparisonColor(), 2, Qt::DashLine));
      graph->setData(other.x, other.y, true);
    }
    x->rescale();
    y->rescale();
    y->setRangeLower(0);
    y->setRangeUpper(y->range().upper * 1.05);
  }
}

}  // namespace variate::ui
