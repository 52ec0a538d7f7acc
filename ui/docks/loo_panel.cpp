#include "ui/docks/loo_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "ui/document/project_document.h"
#include "ui/analysis/prediction_service.h"
#include "ui/plots/chain_palette.h"
#include "ui/plots/export_button.h"
#include "ui/plots/plot_export.h"

namespace variate::ui {
namespace {

QTableWidget* makeTable(const QString& name, const QStringList& headers) {
  auto* table = new QTableWidget;
  table->setObjectName(name);
  table->setColumnCount(static_cast<int>(headers.size()));
  table->setHorizontalHeaderLabels(headers);
  table->verticalHeader()->setVisible(false);
  table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  return table;
}

void setRow(QTableWidget* table, int row, const QStringList& cells) {
  for (int c = 0; c < cells.size(); ++c) {
    auto* item = new QTableWidgetItem(cells[c]);
    if (c > 0) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    table->setItem(row, c, item);
  }
}

QString number(double value) { return QString::number(value, 'f', 2); }

}  // namespace

LooPanel::LooPanel(PredictionService* predictions, QWidget* parent)
    : PredictionPanel(predictions, PredictionNeed::Loo, parent), caption_(new QLabel), plot_(new QCustomPlot),
      estimates_(makeTable("looEstimates", {tr("Estimate"), tr("Value"), tr("SE")})), comparisonNote_(new QLabel),
      comparison_(makeTable("looComparison", {tr("Run"), tr("elpd_diff"), tr("se_diff"), tr("elpd_loo"), tr("se_elpd_loo")})) {
  caption_->setObjectName("looCaption");
  caption_->setWordWrap(true);
  comparisonNote_->setWordWrap(true);
  plot_->setObjectName("paretoKPlot");
  plot_->xAxis->setLabel(tr("observation"));
  plot_->yAxis->setLabel(tr("Pareto k"));
  estimates_->setRowCount(3);
  auto* top = new QHBoxLayout;
  top->addWidget(caption_, 1);
  top->addWidget(makeExportButton(this, [this](const QString& path, QString* error) { return exportTo(path, error); }));
  auto* tables = new QWidget;
  auto* tablesLayout = new QVBoxLayout(tables);
  tablesLayout->setContentsMargins(0, 0, 0, 0);
  tablesLayout->addWidget(estimates_);
  tablesLayout->addWidget(comparisonNote_);
  tablesLayout->addWidget(comparison_);
  auto* splitter = new QSplitter(Qt::Horizontal);
  splitter->addWidget(plot_);
  splitter->addWidget(tables);
  splitter->setSizes({500, 400});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(top);
  layout->addWidget(splitter, 1);
}

void LooPanel::present(const RunPtr& run, const RunPredictionPtr& prediction, const QString& why) {
  plot_->clearPlottables();
  plot_->clearItems();
  estimates_->clearContents();
  if (!prediction) {
    caption_->setText(why);
  } else if (!prediction->loo) {
    caption_->setText(tr("%1: PSIS-LOO failed: %2").arg(run->name, prediction->looNote));
  } else {
    showLoo(*run, *prediction);
  }
  showComparison();
  plot_->replot();
}

void LooPanel::showLoo(const RunData& run, const RunPrediction& prediction) {
  const diagnostics::LooResult& loo = *prediction.loo;
  const int n = static_cast<int>(loo.pareto_k.size());
  int bad = 0, veryBad = 0;
  QVector<double> index, k;
  for (int i = 0; i < n; ++i) {
    index << i + 1;
    k << loo.pareto_k[static_cast<size_t>(i)];
    bad += k.back() > 0.7;
    veryBad += k.back() > 1;
  }
  const QString verdict =
      bad == 0 ? tr("%1: every Pareto k is at most 0.7: the PSIS-LOO estimate holds.").arg(run.name)
               : tr("%1: %2 of %3 observations have Pareto k above 0.7 (%4 above 1): their leave-one-out "
                    "estimates cannot be trusted; refit without them, or use K-fold cross-validation.")
                     .arg(run.name).arg(bad).arg(n).arg(veryBad);
  caption_->setText(prediction.looOnly ? verdict + tr(" (As stored with the run in the project.)") : verdict);
  QCPGraph* graph = plot_->addGraph();
  graph->setName("pareto k");
  graph->setLineStyle(QCPGraph::lsNone);
  graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, chainColor(0), 7));
  graph->setData(index, k, true);
  for (const auto& [level, color] : {std::pair{0.5, QColor("#9e9e9e")}, std::pair{0.7, QColor("#ef6c00")},
                                     std::pair{1.0, divergenceColor()}}) {
    auto* line = new QCPItemStraightLine(plot_);
    line->point1->setCoords(0, level);
    line->point2->setCoords(1, level);
    line->setPen(QPen(color, 1, Qt::DashLine));
  }
  plot_->xAxis->setRange(0, n + 1);
  const double highest = k.isEmpty() ? 1 : *std::max_element(k.begin(), k.end());
  const double lowest = k.isEmpty() ? 0 : *std::min_element(k.begin(), k.end());
  plot_->yAxis->setRange(std::min(lowest, 0.0) - 0.05, std::max(highest, 1.0) + 0.1);
  setRow(estimates_, 0, {"elpd_loo", number(loo.elpd_loo), number(loo.se_elpd_loo)});
  setRow(estimates_, 1, {"p_loo", number(loo.p_loo), number(loo.se_p_loo)});
  setRow(estimates_, 2, {"looic", number(loo.looic), number(loo.se_looic)});
}

void LooPanel::showComparison() {
  comparison_->setRowCount(0);
  const RunPtr current = document() ? document()->runs()->current() : nullptr;
  const RunPredictionPtr mine = current ? predictions()->result(current->id) : nullptr;
  if (!mine || !mine->loo) {
    comparisonNote_->setText(tr("Runs of this project compared by elpd_loo appear here."));
    return;
  }
  // The project's finished NUTS runs with as many observations as the current one
  // (loo_compare compares fits to the same data); the others are asked for meanwhile.
  std::vector<std::string> names;
  std::vector<diagnostics::LooResult> fits;
  int waiting = 0;
  for (qint64 id : document()->runs()->ids()) {
    const RunPtr run = document()->runs()->run(id);
    if (!run || run->isActive() || run->config.method != services::Method::nuts) continue;
    if (!predictions()->request(document()->filePath(), run, PredictionNeed::Loo)) {
      ++waiting;
      continue;
    }
    const RunPredictionPtr prediction = predictions()->result(id);
    if (!prediction->loo || prediction->loo->pareto_k.size() != mine->loo->pareto_k.size()) continue;
    names.push_back(run->name.toStdString());
    fits.push_back(*prediction->loo);
  }
  comparisonNote_->setText(waiting ? tr("Comparison by elpd_loo (%1 more runs being computed):").arg(waiting)
                                   : tr("Comparison by elpd_loo, best first (loo_compare):"));
  if (fits.empty()) return;  // the current run's own LOO is being computed again
  const auto ranked = diagnostics::compare_loo(names, fits);
  comparison_->setRowCount(static_cast<int>(ranked.size()));
  for (int r = 0; r < static_cast<int>(ranked.size()); ++r) {
    const auto& c = ranked[static_cast<size_t>(r)];
    setRow(comparison_, r, {QString::fromStdString(c.name), number(c.elpd_diff), number(c.se_diff), number(c.elpd_loo),
                            number(c.se_elpd_loo)});
  }
}

bool LooPanel::exportTo(const QString& path, QString* error) { return exportPlot(plot_, path, error); }

}  // namespace variate::ui
