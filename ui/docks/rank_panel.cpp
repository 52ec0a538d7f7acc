#include "ui/docks/rank_panel.h"

#include <algorithm>
#include <numeric>

#include <qcustomplot.h>

#include "ui/plots/chain_palette.h"
#include "ui/plots/sampling_draws.h"

namespace variate::ui {

std::vector<std::vector<int>> rankHistograms(const std::vector<std::vector<double>>& draws, int bins) {
  std::vector<std::pair<double, size_t>> pooled;  // value, chain
  for (size_t c = 0; c < draws.size(); ++c) {
    for (double value : draws[c]) pooled.emplace_back(value, c);
  }
  std::sort(pooled.begin(), pooled.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::vector<int>> counts(draws.size(), std::vector<int>(static_cast<size_t>(bins), 0));
  const double total = static_cast<double>(pooled.size());
  for (size_t i = 0; i < pooled.size();) {
    size_t j = i;  // ties share the average of their ranks i + 1 .. j
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    const double rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    const int bin = std::min(bins - 1, static_cast<int>((rank - 1) * bins / total));
    for (size_t k = i; k < j; ++k) ++counts[pooled[k].second][static_cast<size_t>(bin)];
    i = j;
  }
  return counts;
}

RankPanel::RankPanel(QWidget* parent) : DerivedPlotPanel(parent) { plot()->setObjectName("rankPlot"); }

void RankPanel::layOut() {
  const QList<QCPAxisRect*> rects = resetAxisRects(plotted().size());
  for (int i = 0; i < rects.size(); ++i) {
    rects[i]->axis(QCPAxis::atLeft)->setLabel(plotted()[i]);
    if (i + 1 == rects.size()) {
      rects[i]->axis(QCPAxis::atBottom)->setLabel(
          tr("rank among all chains' draws: each chain's count in %1 bins (dashed: expected)").arg(bins()));
    }
  }
}

void RankPanel::recompute() {
  computeOffThread(
      [run = runSnapshot(), names = plotted(), bins = bins()] {
        std::vector<Ranks> ranks;
        for (const QString& name : names) {
          const diagnostics::Draws draws = samplingDraws(*run, run->columnIndex(name));
          Ranks r;
          r.perChain = draws.empty() ? 0 : static_cast<int>(draws[0].size());
          r.total = static_cast<double>(r.perChain) * static_cast<double>(draws.size());
          if (r.perChain >= bins) r.counts = rankHistograms(draws, bins);  // else too few draws to say anything
          ranks.push_back(std::move(r));
        }
        return ranks;
      },
      [this](const std::vector<Ranks>& ranks) { plotRanks(ranks); });
}

void RankPanel::plotRanks(const std::vector<Ranks>& ranks) {
  plot()->clearPlottables();
  plot()->clearItems();
  for (int i = 0; i < static_cast<int>(ranks.size()) && i < plot()->axisRectCount(); ++i) {
    QCPAxis* x = plot()->axisRect(i)->axis(QCPAxis::atBottom);
    QCPAxis* y = plot()->axisRect(i)->axis(QCPAxis::atLeft);
    const auto& [perChain, total, counts] = ranks[static_cast<size_t>(i)];
    if (counts.empty()) continue;
    // Each chain as a step outline, so that all chains overlay in one plot.
    for (size_t c = 0; c < counts.size(); ++c) {
      QVector<double> edges, heights;
      for (int b = 0; b <= bins(); ++b) {
        edges << 1 + (total - 1) * b / bins();
        heights << counts[c][static_cast<size_t>(std::min(b, bins() - 1))];
      }
      QCPGraph* graph = plot()->addGraph(x, y);
      graph->setName(tr("chain %1").arg(c + 1));
      graph->setLineStyle(QCPGraph::lsStepLeft);
      graph->setPen(QPen(chainColor(static_cast<int>(c)), 1.5));
      graph->setData(edges, heights, true);
    }
    // A chain's expected count per bin when all chains sample the same distribution.
    auto* expected = new QCPItemStraightLine(plot());
    expected->setClipAxisRect(plot()->axisRect(i));
    expected->point1->setAxes(x, y);
    expected->point2->setAxes(x, y);
    expected->point1->setCoords(0, static_cast<double>(perChain) / bins());
    expected->point2->setCoords(1, static_cast<double>(perChain) / bins());
    expected->setPen(QPen(QColor("#616161"), 1, Qt::DashLine));
    x->setRange(1, total);
    y->rescale();
    y->setRange(0, std::max(y->range().upper, 2.0 * perChain / bins()) * 1.05);
  }
}

}  // namespace variate::ui
