#include "ui/docks/trace_panel.h"

#include <QCheckBox>
#include <QHBoxLayout>

#include <qcustomplot.h>

#include "ui/plots/chain_palette.h"

namespace variate::ui {
namespace {

constexpr int kMaxDivergenceMarks = 2000;  // per parameter; the count keeps going

}  // namespace

TracePanel::TracePanel(QWidget* parent) : RunPlotPanel(parent), showWarmup_(new QCheckBox(tr("Warmup"))) {
  showWarmup_->setChecked(true);
  showWarmup_->setToolTip(tr("Show the warmup iterations (shaded)"));
  toolRow()->insertWidget(0, showWarmup_);
  connect(showWarmup_, &QCheckBox::toggled, this, [this] { requestRefresh(); });
  plot()->setObjectName("tracePlot");
  // Dense traces gain nothing from antialiasing and cost several times more to draw.
  plot()->setNotAntialiasedElements(QCP::aePlottables);
  plot()->setPlottingHint(QCP::phFastPolylines, true);
}

int TracePanel::plottedIterations(int chain) const {
  if (rows_.empty() || chain >= static_cast<int>(rows_.front().chains.size())) return 0;
  return rows_.front().chains[chain].count();
}


void TracePanel::ensureChains(Row& row, int chains) {
  while (static_cast<int>(row.chains.size()) < chains) {
    const int chain = static_cast<int>(row.chains.size());
    row.chains.emplace_back(600);  // at most 1,200 points per chain and parameter: ~1 per pixel
    QCPGraph* graph = plot()->addGraph(row.graphs.isEmpty() ? row.divergenceGraph->keyAxis() : row.graphs.front()->keyAxis(),
                                       row.divergenceGraph->valueAxis());
    QColor color = chainColor(chain);
    color.setAlpha(200);
    graph->setPen(QPen(color, 1));
    // An approximation's one chain is its independent draws, in the order they were made.
    graph->setName(run() && services::draws_are_independent(run()->config.method) ? tr("draws (independent)")
                                                                      : tr("chain %1").arg(chain + 1));
    graph->setAdaptiveSampling(false);  // the data is decimated already
    row.graphs << graph;
    if (&row == &rows_.front() && legend_) graph->addToLegend(legend_);
  }
}

void TracePanel::add(Row& row, const DrawBlock& block) {
  ensureChains(row, block.chain + 1);
  DecimatedSeries& series = row.chains[block.chain];
  for (int r = 0; r < block.rows(); ++r) {
    const double value = block.value(r, row.column);
    series.append(block.firstIteration + r, value);
    if (block.stats[r].divergent) {
      ++(block.firstIteration + r < block.warmupIterations ? row.warmupDivergences : row.divergences);
      if (row.divergenceX.size() < kMaxDivergenceMarks) {
        row.divergenceX << block.firstIteration + r;
        row.divergenceY << value;
      }
    }
  }
}

void TracePanel::rebuild() {
  rows_.clear();
  legend_ = nullptr;
  const QList<QCPAxisRect*> rects = resetAxisRects(plotted().size());
  if (!run()) {
    plot()->replot();
    return;
  }
  const bool independent = services::draws_are_independent(run()->config.method);
  showWarmup_->setVisible(!independent);  // an approximation's draws have no warmup
  rows_.resize(rects.size());
  for (int i = 0; i < rects.size(); ++i) {
    Row& row = rows_[i];
    row.column = run()->columnIndex(plotted()[i]);
    QCPAxisRect* rect = rects[i];
    rect->axis(QCPAxis::atLeft)->setLabel(plotted()[i]);
    rect->axis(QCPAxis::atBottom)->setTickLabels(i + 1 == rects.size());
    if (i + 1 == rects.size()) rect->axis(QCPAxis::atBottom)->setLabel(independent ? tr("draw") : tr("iteration"));
    row.warmup = new QCPItemRect(plot());
    row.warmup->setClipAxisRect(rect);
    for (QCPItemPosition* corner : {row.warmup->topLeft, row.warmup->bottomRight}) {
      corner->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
      corner->setAxisRect(rect);
      corner->setTypeX(QCPItemPosition::ptPlotCoords);
      corner->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    row.warmup->setPen(Qt::NoPen);
    row.warmup->setBrush(QColor(0, 0, 0, 22));
    row.warmup->setLayer("grid");
    row.divergenceGraph = plot()->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    row.divergenceGraph->setLineStyle(QCPGraph::lsNone);
    row.divergenceGraph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, divergenceColor(), divergenceColor(), 5));
    row.divergenceGraph->setName(tr("divergent"));
    row.divergenceGraph->setLayer("axes");  // marks above the chains' lines
    if (i == 0) {  // one legend row above the plots, so it never hides a trace
      legend_ = new QCPLegend;
      plot()->plotLayout()->insertRow(0);
      plot()->plotLayout()->addElement(0, 0, legend_);
      plot()->plotLayout()->setRowStretchFactor(0, 0.001);
      legend_->setLayer("legend");
      legend_->setBorderPen(Qt::NoPen);
      legend_->setFillOrder(QCPLayoutGrid::foColumnsFirst);
      legend_->setWrap(9);
      legend_->setMargins(QMargins(0, 0, 0, 0));
      if (!independent) row.divergenceGraph->addToLegend(legend_);  // no transitions, no divergences
    }
    if (row.column < 0) continue;
    const int chains = static_cast<int>(run()->chains.size());
    ensureChains(row, chains);
    for (int c = 0; c < chains; ++c) {
      for (const auto& block : run()->chains[c].blocks()) add(row, *block);
    }
  }
}

void TracePanel::append(const DrawBlocks& blocks) {
  for (Row& row : rows_) {
    if (row.column < 0) continue;
    for (const auto& block : blocks) add(row, *block);
  }
}

void TracePanel::redraw() {
  if (!run()) return;
  int iterations = run()->plannedIterations();
  int warmup = 0;
  for (const auto& chain : run()->chains) {
    iterations = std::max(iterations, chain.iterations());
    warmup = std::max(warmup, chain.warmupIterations());
  }
  const double start = showWarmup_->isChecked() ? 0 : warmup;
  QVector<double> xs, ys;
  for (Row& row : rows_) {
    for (int c = 0; c < row.graphs.size(); ++c) {
      row.chains[c].points(&xs, &ys);
      row.graphs[c]->setData(xs, ys, true);
    }
    row.divergenceGraph->setData(row.divergenceX, row.divergenceY);
    row.divergenceGraph->setName(row.warmupDivergences == 0
                                     ? tr("divergent (%1)").arg(row.divergences)
                                     : tr("divergent (%1; %2 in warmup)").arg(row.divergences).arg(row.warmupDivergences));
    row.warmup->setVisible(warmup > 0 && showWarmup_->isChecked());
    row.warmup->topLeft->setCoords(-0.5, 0);
    row.warmup->bottomRight->setCoords(warmup - 0.5, 1);
    QCPAxis* x = row.divergenceGraph->keyAxis();
    QCPAxis* y = row.divergenceGraph->valueAxis();
    x->setRange(start, std::max<double>(iterations, start + 1));
    y->rescale();
    const QCPRange range = y->range();
    y->setRange(range.lower - range.size() * 0.05, range.upper + range.size() * 0.05);
  }
}

}  // namespace variate::ui
