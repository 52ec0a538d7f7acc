#include "ui/docks/pair_panel.h"

#include <algorithm>

#include <QHBoxLayout>
#include <QLabel>

#include <qcustomplot.h>

#include "ui/plots/chain_palette.h"
#include "ui/plots/density_estimate.h"
#include "ui/plots/sampling_draws.h"

namespace variate::ui {
namespace {

// A scatter of more points than this shows nothing more, and costs the UI thread: the
// draws are thinned evenly beyond it (divergent ones are all kept).
constexpr int kMaxScatterPoints = 8000;

}  // namespace

PairPanel::PairPanel(QWidget* parent) : DerivedPlotPanel(parent), caption_(new QLabel) {
  plot()->setObjectName("pairPlot");
  caption_->setObjectName("pairCaption");
  toolRow()->insertWidget(0, caption_);
}

QCPAxisRect* PairPanel::cell(int row, int column) const {
  const int n = matrixParameters().size();
  if (row < 0 || column < 0 || row >= n || column >= n) return nullptr;
  return qobject_cast<QCPAxisRect*>(plot()->plotLayout()->element(row, column));
}

void PairPanel::layOut() {
  plot()->clearItems();
  plot()->clearPlottables();
  plot()->plotLayout()->clear();
  const QStringList names = matrixParameters();
  const int n = names.size();
  // Cells of a column share their left margin, cells of a row their bottom one, so the
  // axes line up across the matrix.
  QList<QCPMarginGroup*> columns, rows;
  for (int i = 0; i < n; ++i) {
    columns << new QCPMarginGroup(plot());
    rows << new QCPMarginGroup(plot());
  }
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      auto* rect = new QCPAxisRect(plot());
      plot()->plotLayout()->addElement(r, c, rect);
      rect->setMarginGroup(QCP::msLeft | QCP::msRight, columns[c]);
      rect->setMarginGroup(QCP::msTop | QCP::msBottom, rows[r]);
      rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
      rect->axis(QCPAxis::atBottom)->ticker()->setTickCount(4);  // small cells: few labels
      rect->axis(QCPAxis::atLeft)->ticker()->setTickCount(4);
      if (r == n - 1) rect->axis(QCPAxis::atBottom)->setLabel(names[c]);
      if (c == 0) rect->axis(QCPAxis::atLeft)->setLabel(r == c ? tr("density") : names[r]);
    }
  }
}

void PairPanel::recompute() {
  const QStringList names = matrixParameters();
  plot()->clearPlottables();
  if (names.size() < 2) {
    caption_->setText(tr("Choose 2 to 4 parameters."));
    return;
  }
  computeOffThread(
      [run = runSnapshot(), names] {
        const int n = names.size();
        std::vector<diagnostics::Draws> draws;
        for (const QString& name : names) draws.push_back(samplingDraws(*run, run->columnIndex(name)));
        const std::vector<std::vector<bool>> divergent = samplingDivergences(*run);
        Pairs pairs;
        for (const auto& chain : divergent) {
          pairs.total += static_cast<int>(chain.size());
          pairs.divergences += static_cast<int>(std::count(chain.begin(), chain.end(), true));
        }
        const int stride = std::max(1, (pairs.total + kMaxScatterPoints - 1) / kMaxScatterPoints);
        pairs.cells.resize(static_cast<size_t>(n * n));
        for (int r = 0; r < n; ++r) {
          for (int c = 0; c < n; ++c) {
            Cell& out = pairs.cells[static_cast<size_t>(r * n + c)];
            if (r == c) {
              out.density = densityEstimate(diagnostics::pooled(draws[c]));
              continue;
            }
            int index = 0;
            for (size_t chain = 0; chain < draws[c].size(); ++chain) {
              for (size_t i = 0; i < draws[c][chain].size(); ++i) {
                const double vx = draws[c][chain][i], vy = draws[r][chain][i];
                if (index++ % stride == 0) {
                  out.xs << vx;
                  out.ys << vy;
                }
                if (divergent[chain][i]) {
                  out.divergentX << vx;
                  out.divergentY << vy;
                }
              }
            }
          }
        }
        return pairs;
      },
      [this, name = run()->name](const Pairs& pairs) { plotPairs(name, pairs); });
}

void PairPanel::plotPairs(const QString& runName, const Pairs& pairs) {
  const int n = matrixParameters().size();
  plot()->clearPlottables();
  caption_->setText(tr("%1: %2 post-warmup draws, %3 divergent (red)").arg(runName).arg(pairs.total).arg(pairs.divergences));
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      QCPAxisRect* rect = cell(r, c);
      QCPAxis* x = rect->axis(QCPAxis::atBottom);
      QCPAxis* y = rect->axis(QCPAxis::atLeft);
      const Cell& data = pairs.cells[static_cast<size_t>(r * n + c)];
      if (r == c) {
        QCPGraph* graph = plot()->addGraph(x, y);
        graph->setName("density");
        graph->setPen(QPen(QColor("#263238"), 1.5));
        graph->setBrush(QColor(38, 50, 56, 35));
        graph->setData(data.density.x, data.density.y, true);
      } else {
        QCPGraph* all = plot()->addGraph(x, y);
        all->setName("draws");
        all->setLineStyle(QCPGraph::lsNone);
        all->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(0, 114, 178, 90), 2.5));
        all->setData(data.xs, data.ys);
        QCPGraph* marked = plot()->addGraph(x, y);
        marked->setName("divergent");
        marked->setLineStyle(QCPGraph::lsNone);
        marked->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, divergenceColor(), 5));
        marked->setData(data.divergentX, data.divergentY);
      }
      x->rescale();
      y->rescale();
      if (r == c) y->setRangeLower(0);
    }
  }
}

}  // namespace variate::ui
