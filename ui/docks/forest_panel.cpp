#include "ui/docks/forest_panel.h"

#include <algorithm>

#include <QCheckBox>
#include <QHBoxLayout>

#include <qcustomplot.h>
#include "engine/diagnostics/quantiles.h"

#include "ui/plots/chain_palette.h"
#include "ui/plots/sampling_draws.h"

namespace variate::ui {
namespace {

const std::vector<double> kProbabilities = {0.05, 0.25, 0.5, 0.75, 0.95};

}  // namespace

ForestPanel::ForestPanel(QWidget* parent) : DerivedPlotPanel(parent), perChain_(new QCheckBox(tr("Each chain"))) {
  plot()->setObjectName("forestPlot");
  perChain_->setObjectName("perChain");
  perChain_->setToolTip(tr("Also show each chain's intervals below those of all chains"));
  toolRow()->insertWidget(0, perChain_);
  plot()->addLayer("medians", plot()->layer("main"), QCustomPlot::limAbove);
  connect(perChain_, &QCheckBox::toggled, this, [this] { invalidate(); });
}

QCPGraph* ForestPanel::medians(const QString& name) const {
  for (int i = 0; i < plot()->graphCount(); ++i) {
    if (plot()->graph(i)->name() == name) return plot()->graph(i);
  }
  return nullptr;
}

QCPErrorBars* ForestPanel::intervals(const QString& name, int percent) const {
  for (int i = 0; i < plot()->plottableCount(); ++i) {
    auto* bars = qobject_cast<QCPErrorBars*>(plot()->plottable(i));
    if (bars && bars->name() == QString("%1 %2%").arg(name).arg(percent)) return bars;
  }
  return nullptr;
}

double ForestPanel::rowOf(int index, int chain) const {
  // Parameters from the top down; a parameter's chains fan out below its pooled row.
  const double top = plotted().size() - 1 - index;
  if (chain < 0 || chains_ == 0) return top;
  return top - 0.8 * (chain + 1) / (chains_ + 1);
}

void ForestPanel::layOut() {
  const QList<QCPAxisRect*> rects = resetAxisRects(plotted().isEmpty() ? 0 : 1);
  if (rects.isEmpty()) return;
  rects[0]->axis(QCPAxis::atBottom)->setLabel(tr("median, 50% and 90% central intervals"));
  rects[0]->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<QCPAxisTickerText>::create());
  rects[0]->axis(QCPAxis::atLeft)->grid()->setZeroLinePen(Qt::NoPen);  // row 0 is a parameter's row
}

void ForestPanel::recompute() {
  chains_ = perChain_->isChecked() ? static_cast<int>(run()->chains.size()) : 0;
  computeOffThread(
      [run = runSnapshot(), names = plotted(), chains = chains_] {
        // groups[chain + 1][parameter]: the quantiles of all chains' draws, then each chain's.
        std::vector<std::vector<std::vector<double>>> groups(static_cast<size_t>(chains) + 1,
                                                             std::vector<std::vector<double>>(names.size()));
        for (int i = 0; i < names.size(); ++i) {
          const diagnostics::Draws draws = samplingDraws(*run, run->columnIndex(names[i]));
          for (int chain = -1; chain < chains; ++chain) {
            if (draws.size() <= static_cast<size_t>(std::max(chain, 0))) continue;
            const std::vector<double> values = chain < 0 ? diagnostics::pooled(draws) : draws[static_cast<size_t>(chain)];
            if (!values.empty()) groups[static_cast<size_t>(chain + 1)][static_cast<size_t>(i)] = diagnostics::quantiles(values, kProbabilities);
          }
        }
        return groups;
      },
      [this](const std::vector<std::vector<std::vector<double>>>& groups) { plotIntervals(groups); });
}

void ForestPanel::plotIntervals(const std::vector<std::vector<std::vector<double>>>& groups) {
  plot()->clearPlottables();
  if (plot()->axisRectCount() == 0) return;
  QCPAxis* x = plot()->axisRect(0)->axis(QCPAxis::atBottom);
  QCPAxis* y = plot()->axisRect(0)->axis(QCPAxis::atLeft);
  auto ticker = qSharedPointerCast<QCPAxisTickerText>(y->ticker());
  ticker->clear();
  for (int i = 0; i < plotted().size(); ++i) ticker->addTick(rowOf(i), plotted()[i]);

  // One median graph with its two interval bars per group (all chains, then each chain).
  for (int chain = -1; chain < chains_; ++chain) {
    QVector<double> rows, medians, minus50, plus50, minus90, plus90;
    const auto& quantiles = groups[static_cast<size_t>(chain + 1)];
    for (int i = plotted().size() - 1; i >= 0; --i) {  // keys ascending
      const std::vector<double>& q = quantiles[static_cast<size_t>(i)];
      if (q.empty()) continue;
      rows << rowOf(i, chain);
      medians << q[2];
      minus50 << q[2] - q[1];
      plus50 << q[3] - q[2];
      minus90 << q[2] - q[0];
      plus90 << q[4] - q[2];
    }
    const QString name = chain < 0 ? tr("all chains") : tr("chain %1").arg(chain + 1);
    const QColor color = chain < 0 ? QColor("#263238") : chainColor(chain);
    QCPGraph* graph = plot()->addGraph(y, x);  // rows are keys, on the vertical axis
    graph->setName(name);
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, chain < 0 ? 8 : 6));
    graph->setData(rows, medians, true);
    for (const auto& [percent, width] : {std::pair{90, 1.2}, std::pair{50, 4.0}}) {
      auto* bars = new QCPErrorBars(y, x);
      bars->setName(QString("%1 %2%").arg(name).arg(percent));
      bars->setDataPlottable(graph);
      bars->setErrorType(QCPErrorBars::etValueError);
      bars->setWhiskerWidth(0);
      bars->setPen(QPen(color, chain < 0 ? width : width * 0.7));
      bars->setData(percent == 90 ? minus90 : minus50, percent == 90 ? plus90 : plus50);
    }
    graph->setLayer("medians");  // dots over their intervals
  }
  x->rescale();
  const double span = x->range().size() > 0 ? x->range().size() : 1;
  x->setRange(x->range().lower - 0.05 * span, x->range().upper + 0.05 * span);
  y->setRange(-1, plotted().size());
}

}  // namespace variate::ui
