#include "ui/plots/latent_scatter.h"

#include <map>

#include <QVBoxLayout>

#include <qcustomplot.h>

namespace variate::ui {
namespace {

// Ten labels apart (a data set of ten classes), as matplotlib's tab10.
QColor labelColor(int label) {
  static const QColor colors[] = {QColor("#1f77b4"), QColor("#ff7f0e"), QColor("#2ca02c"),
                                  QColor("#d62728"), QColor("#9467bd"), QColor("#8c564b"),
                                  QColor("#e377c2"), QColor("#7f7f7f"), QColor("#bcbd22"),
                                  QColor("#17becf")};
  return label < 0 ? QColor("#546e7a") : colors[label % 10];
}

}  // namespace

LatentScatter::LatentScatter(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot) {
  plot_->setObjectName("latentPlot");
  plot_->xAxis->setLabel("z[1]");
  plot_->yAxis->setLabel("z[2]");
  plot_->legend->setVisible(true);
  plot_->legend->setBrush(QColor(255, 255, 255, 200));
  plot_->legend->setFont(QFont(font().family(), 7));
  plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
}

void LatentScatter::setPoints(const std::vector<float>& latent, const std::vector<int>& labels) {
  plot_->clearGraphs();
  std::map<int, std::pair<QVector<double>, QVector<double>>> byLabel;
  const size_t n = latent.size() / 2;
  for (size_t i = 0; i < n; ++i) {
    auto& [xs, ys] = byLabel[i < labels.size() ? labels[i] : -1];
    xs << latent[2 * i];
    ys << latent[2 * i + 1];
  }
  for (const auto& [label, points] : byLabel) {
    QCPGraph* graph = plot_->addGraph();
    graph->setName(label < 0 ? tr("unlabelled") : tr("label %1").arg(label));
    graph->setLineStyle(QCPGraph::lsNone);
    QColor color = labelColor(label);
    color.setAlpha(150);
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, 3.5));
    graph->setData(points.first, points.second);
  }
  points_ = static_cast<int>(n);
  plot_->rescaleAxes();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

int LatentScatter::labelCount() const { return plot_->graphCount(); }

}  // namespace variate::ui
