#include "ui/docks/predictive_check_panel.h"

#include <numeric>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "engine/services/setting_table.h"
#include "ui/plots/density_estimate.h"
#include "ui/plots/export_button.h"
#include "ui/plots/plot_export.h"

namespace variate::ui {
namespace {

// p-values this close to 0 or 1 say the model does not reproduce the statistic.
constexpr double kExtremeP = 0.05;

}  // namespace

PredictiveCheckPanel::PredictiveCheckPanel(PredictionService* predictions, QWidget* parent)
    : PredictionPanel(predictions, PredictionNeed::Replications, parent), caption_(new QLabel), variable_(new QComboBox), plot_(new QCustomPlot),
      table_(new QTableWidget) {
  caption_->setObjectName("predictiveCaption");
  caption_->setWordWrap(true);
  variable_->setObjectName("observedVariable");
  plot_->setObjectName("predictivePlot");
  table_->setObjectName("predictiveStatistics");
  table_->setColumnCount(4);
  table_->setHorizontalHeaderLabels({tr("Statistic"), tr("T(y)"), tr("mean T(y_rep)"), tr("p = Pr(T(y_rep) ≥ T(y))")});
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  plot_->xAxis->setLabel(tr("value"));
  plot_->yAxis->setLabel(tr("density"));
  plot_->legend->setVisible(true);
  auto* top = new QHBoxLayout;
  top->addWidget(caption_, 1);
  top->addWidget(variable_);
  top->addWidget(makeExportButton(this, [this](const QString& path, QString* error) { return exportTo(path, error); }));
  auto* splitter = new QSplitter(Qt::Vertical);
  splitter->addWidget(plot_);
  splitter->addWidget(table_);
  splitter->setSizes({300, 160});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(top);
  layout->addWidget(splitter, 1);
  connect(variable_, &QComboBox::currentIndexChanged, this, [this](int index) {
    if (prediction_ && index >= 0 && index < static_cast<int>(prediction_->observed.size())) showVariable(prediction_->observed[index]);
  });
}

void PredictiveCheckPanel::present(const RunPtr& run, const RunPredictionPtr& prediction, const QString& why) {
  const size_t draws = prediction && !prediction->observed.empty() ? prediction->observed[0].replicated.size() : 0;
  // A run of the prior's draws replicates from them: the prior predictive distribution.
  const bool prior = run && run->config.settings.get(services::setting::prior);
  caption_->setText(prediction ? (prior ? tr("%1: data (dark) against %2 of its prior predictive data sets y_rep "
                                             "(light), drawn from the prior")
                                        : tr("%1: data (dark) against %2 of its replicated data sets y_rep (light)"))
                                     .arg(run->name)
                                     .arg(std::min<size_t>(maxOverlaid(), draws))
                               : why);
  if (prediction == prediction_ && prediction) return;
  prediction_ = prediction;
  const QString chosen = variable_->currentText();
  {
    const QSignalBlocker block(variable_);
    variable_->clear();
    if (prediction_) {
      for (const auto& variable : prediction_->observed) variable_->addItem(variable.name);
    }
    variable_->setCurrentIndex(std::max(0, variable_->findText(chosen)));
  }
  variable_->setVisible(variable_->count() > 1);
  plot_->clearPlottables();
  table_->setRowCount(0);
  if (prediction_ && !prediction_->observed.empty()) showVariable(prediction_->observed[std::max(0, variable_->currentIndex())]);
  plot_->replot();
}

void PredictiveCheckPanel::showVariable(const ObservedPrediction& variable) {
  plot_->clearPlottables();
  // Evenly spaced draws, so the overlay samples the whole run.
  const size_t draws = variable.replicated.size();
  const size_t shown = std::min<size_t>(maxOverlaid(), draws);
  for (size_t k = 0; k < shown; ++k) {
    const DensityCurve curve = densityEstimate(variable.replicated[k * draws / shown]);
    QCPGraph* graph = plot_->addGraph();
    graph->setName(tr("y_rep"));
    graph->setPen(QPen(QColor(86, 180, 233, 90), 1));
    graph->setData(curve.x, curve.y, true);
    if (k > 0) graph->removeFromLegend();  // one legend entry for all
  }
  const DensityCurve data = densityEstimate(variable.observed);
  QCPGraph* observed = plot_->addGraph();
  observed->setName(tr("y"));
  observed->setPen(QPen(QColor("#0d47a1"), 2.5));
  observed->setData(data.x, data.y, true);
  plot_->xAxis->setLabel(variable.name);
  plot_->rescaleAxes();
  plot_->yAxis->setRangeLower(0);

  table_->setRowCount(static_cast<int>(variable.statistics.size()));
  for (int r = 0; r < static_cast<int>(variable.statistics.size()); ++r) {
    const TestStatistic& t = variable.statistics[static_cast<size_t>(r)];
    const double meanRep = t.replicated.empty() ? 0
                                                : std::accumulate(t.replicated.begin(), t.replicated.end(), 0.0) /
                                                      static_cast<double>(t.replicated.size());
    const QStringList cells = {t.name, QString::number(t.observed, 'g', 4), QString::number(meanRep, 'g', 4),
                               QString::number(t.pValue, 'f', 3)};
    for (int c = 0; c < cells.size(); ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      if (c > 0) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      if (c == 3 && (t.pValue < kExtremeP || t.pValue > 1 - kExtremeP)) item->setBackground(QColor("#ffcdd2"));
      table_->setItem(r, c, item);
    }
  }
  plot_->replot();
}

bool PredictiveCheckPanel::exportTo(const QString& path, QString* error) { return exportPlot(plot_, path, error); }

}  // namespace variate::ui
