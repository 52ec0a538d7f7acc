#include "ui/docks/sbc_panel.h"

#include <algorithm>
#include <cmath>

#include <QCoreApplication>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "engine/diagnostics/thresholds.h"
#include "engine/services/run_config.h"
#include "engine/services/setting_table.h"
#include "ui/document/project_document.h"
#include "ui/plots/analysis_pool.h"
#include "ui/plots/export_button.h"
#include "ui/plots/plot_export.h"
#include "ui/threading/thread_handoff.h"

namespace variate::ui {
namespace {

namespace setting = services::setting;

const QColor kBand("#bbdefb");
const QColor kBandEdge("#64b5f6");
const QColor kInside("#455a64");
const QColor kOutside("#c62828");

// The ranks of each quantity over the replications that ran, in the order they ended.
std::vector<std::vector<int64_t>> ranksOf(const SbcReplications& sbc, int quantities) {
  std::vector<std::vector<int64_t>> ranks(static_cast<size_t>(quantities));
  for (const auto& replication : sbc.ended) {
    if (static_cast<int>(replication.ranks.size()) != quantities) continue;  // failed
    for (int q = 0; q < quantities; ++q) ranks[q].push_back(replication.ranks[q]);
  }
  return ranks;
}

QString problemText(const store::SbcReplicationRecord& r) {
  QStringList what;
  if (!r.failure.empty()) what << QObject::tr("failed: %1").arg(QString::fromStdString(r.failure));
  if (r.divergences > 0) what << QObject::tr("%n divergent transition(s)", "", static_cast<int>(r.divergences));
  if (r.max_rhat > diagnostics::kMaxRhat) what << QObject::tr("R-hat %1").arg(r.max_rhat, 0, 'f', 3);
  return QObject::tr("Replication %1: %2").arg(r.replication + 1).arg(what.join(", "));
}

}  // namespace

SbcView sbcView(const QStringList& names, const std::vector<std::vector<int64_t>>& ranks, int64_t maxRank,
                double prob) {
  SbcView view;
  view.maxRank = maxRank;
  view.prob = prob;
  if (ranks.empty() || ranks[0].empty()) return view;
  const auto n = static_cast<int64_t>(ranks[0].size());
  view.ranked = static_cast<int>(n);
  const int64_t k = maxRank + 1;
  const diagnostics::EcdfBand band = diagnostics::simultaneous_ecdf_band(n, k, prob);
  const int bins = std::min<int>(diagnostics::default_bins(n, maxRank), static_cast<int>(k));
  for (size_t q = 0; q < ranks.size(); ++q) {
    SbcQuantityView quantity;
    quantity.name = names.value(static_cast<int>(q));
    quantity.ecdf = diagnostics::ecdf_uniformity(ranks[q], maxRank, band);
    quantity.chiSquare = diagnostics::binned_chi_square(ranks[q], maxRank, bins);
    for (int b = 0; b <= bins; ++b) quantity.binStarts.push_back(b * k / bins);  // binned_chi_square's bins
    for (int b = 0; b < bins; ++b) {
      const double p = static_cast<double>(quantity.binStarts[b + 1] - quantity.binStarts[b]) / static_cast<double>(k);
      quantity.binLower.push_back(diagnostics::binomial_quantile(0.025, n, p));
      quantity.binUpper.push_back(diagnostics::binomial_quantile(0.975, n, p));
    }
    view.quantities.push_back(std::move(quantity));
  }
  return view;
}

SbcPanel::SbcPanel(QWidget* parent)
    : QWidget(parent),
      header_(new QLabel),
      plot_(new QCustomPlot),
      verdicts_(new QTableWidget(0, 4)),
      problems_(new QListWidget) {
  header_->setWordWrap(true);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  plot_->setObjectName("sbcPlot");
  plot_->setMinimumSize(400, 200);
  verdicts_->setObjectName("sbcVerdicts");
  verdicts_->setHorizontalHeaderLabels({tr("Quantity"), tr("ECDF"), tr("Chi-square p"), tr("Verdict")});
  verdicts_->horizontalHeader()->setStretchLastSection(true);
  verdicts_->verticalHeader()->hide();
  verdicts_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  verdicts_->setSelectionBehavior(QAbstractItemView::SelectRows);
  verdicts_->setToolTip(
      tr("Each quantity's ranks against uniform: inside or outside the ECDF's simultaneous band "
         "(the verdict), and the chi-square test of the binned ranks. Select quantities to plot "
         "them"));
  problems_->setObjectName("sbcProblems");
  problems_->setToolTip(
      tr("Replications whose fit failed, had divergent transitions or an R-hat above 1.01 (their "
         "ranks are included). Double-click one to open its fit: its simulated data fitted again "
         "with its seed, a run of its own"));

  auto* problemsBox = new QWidget;
  auto* problemsLayout = new QVBoxLayout(problemsBox);
  problemsLayout->setContentsMargins(0, 0, 0, 0);
  problemsLayout->addWidget(new QLabel(tr("Replications with problems (double-click: open its fit)")));
  problemsLayout->addWidget(problems_);
  auto* side = new QSplitter(Qt::Vertical);
  side->addWidget(verdicts_);
  side->addWidget(problemsBox);
  side->setStretchFactor(0, 3);
  side->setStretchFactor(1, 2);
  auto* tools = new QHBoxLayout;
  tools->setContentsMargins(0, 0, 0, 0);
  tools->addWidget(header_, 1);
  tools->addWidget(
      makeExportButton(this, [this](const QString& path, QString* error) { return exportTo(path, error); }), 0,
      Qt::AlignTop);
  auto* splitter = new QSplitter(Qt::Horizontal);  // the plots get the panel's whole height
  splitter->addWidget(plot_);
  splitter->addWidget(side);
  splitter->setStretchFactor(0, 5);
  splitter->setStretchFactor(1, 2);
  splitter->setSizes({620, 380});
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(tools);
  layout->addWidget(splitter, 1);

  connect(verdicts_, &QTableWidget::itemSelectionChanged, this, &SbcPanel::drawPlot);
  connect(problems_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
    if (run_) emit replicationFitRequested(run_->id, item->data(Qt::UserRole).toInt());
  });
  setRun(-1);
}

void SbcPanel::setDocument(ProjectDocument* document) {
  for (const auto& connection : connections_) disconnect(connection);
  connections_.clear();
  document_ = document;
  if (!document) {
    setRun(-1);
    return;
  }
  RunList* runs = document->runs();
  connections_ << connect(runs, &RunList::currentChanged, this, &SbcPanel::setRun);
  connections_ << connect(runs, &RunList::sbcChanged, this, &SbcPanel::runChanged);
  connections_ << connect(runs, &RunList::runChanged, this, &SbcPanel::runChanged);
  setRun(runs->currentId());
}

void SbcPanel::setRun(qint64 id) {
  const RunPtr run = document_ ? document_->runs()->run(id) : nullptr;
  run_ = run && run->config.method == services::Method::sbc ? run : nullptr;
  ++generation_;
  view_ = SbcView();
  verdicts_->clearSelection();
  showHeader();
  showTable();
  showProblems();
  drawPlot();
  recompute();
}

void SbcPanel::runChanged(qint64 id) {
  if (!run_ || id != run_->id || !document_) return;
  run_ = document_->runs()->run(id);
  showHeader();
  showProblems();
  recompute();
}

// The tests of every quantity, on the analysis pool; one computation at a time, the
// latest replications taken when it ends.
void SbcPanel::recompute() {
  if (!run_) return;
  if (computing_) {
    dirty_ = true;
    return;
  }
  computing_ = true;
  dirty_ = false;
  QPointer<SbcPanel> self(this);
  const int generation = generation_;
  const QStringList names = run_->columnNames;
  const int64_t maxRank = run_->sbc.maxRank;
  const auto ranks = ranksOf(run_->sbc, static_cast<int>(names.size()));
  startAnalysis([self, generation, names, maxRank, ranks] {
    std::shared_ptr<const SbcView> view;
    try {
      view = std::make_shared<const SbcView>(sbcView(names, ranks, maxRank, 0.99));
    } catch (const std::exception& e) {  // never across the queued call
      qWarning("SBC panel: %s", e.what());
    }
    postCall(QCoreApplication::instance(), [self, generation, view] {
      if (self) self->show(view, generation);
    });
  });
}

void SbcPanel::show(std::shared_ptr<const SbcView> view, int generation) {
  computing_ = false;
  if (generation == generation_ && view) {
    view_ = *view;
    showHeader();
    showTable();
    drawPlot();
    emit refreshed();
  }
  if (dirty_ || generation != generation_) recompute();
}

void SbcPanel::showHeader() {
  if (!run_) {
    header_->setText(
        tr("Simulation-based calibration: choose <b>SBC</b> in the Run panel and run it, or select an "
           "SBC run in the Runs panel. Each replication draws parameters from the prior, simulates data "
           "from them and fits it; the parameters' ranks among the fits' draws are uniform when the "
           "fits are calibrated."));
    return;
  }
  const services::Settings& s = run_->config.settings;
  const int planned = s.get(setting::replications);
  int problems = 0;
  for (const auto& r : run_->sbc.ended) problems += SbcReplications::hadProblems(r) ? 1 : 0;
  QString text = tr("<b>%1</b>: %2 of %3 replications ended (%4 with problems), fitted by %5; ranks 0 to %6 among "
                    "every %7th draw")
                     .arg(run_->name.toHtmlEscaped())
                     .arg(run_->sbc.ended.size())
                     .arg(planned)
                     .arg(problems)
                     .arg(methodName(services::fit_method(s)))
                     .arg(run_->sbc.maxRank)
                     .arg(s.get(setting::thin));
  if (const auto generator = s.get(setting::generator)) {
    text +=
        tr("; data simulated from %1").arg(QFileInfo(QString::fromStdString(*generator)).fileName().toHtmlEscaped());
  }
  if (!view_.quantities.empty()) {
    text += tr("<br>Left: each quantity's ranks per bin, shaded each bin's binomial 95% interval. Right: the ranks' "
               "ECDF less the uniform's, shaded its simultaneous %1% band.")
                .arg(std::lround(view_.prob * 100));
    int rejected = 0;
    for (const auto& q : view_.quantities) rejected += q.ecdf.uniform ? 0 : 1;
    const int level = static_cast<int>(std::lround((1 - view_.prob) * 100));
    text += "<br>" + (rejected == 0 ? tr("Over %1 replications no quantity's ranks depart from uniform at %2%: no "
                                         "sign of miscalibration.")
                                          .arg(view_.ranked)
                                          .arg(level)
                                    : tr("<span style='color:#c62828'>Over %1 replications %2 of %3 quantities' ranks "
                                         "depart from uniform at %4%: the fits are miscalibrated (or the data come "
                                         "from another model).</span>")
                                          .arg(view_.ranked)
                                          .arg(rejected)
                                          .arg(view_.quantities.size())
                                          .arg(level));
  }
  header_->setText(text);
}

void SbcPanel::showTable() {
  const QSignalBlocker block(verdicts_);
  QList<int> selected;
  for (const QModelIndex& index : verdicts_->selectionModel()->selectedRows()) selected << index.row();
  verdicts_->setRowCount(static_cast<int>(view_.quantities.size()));
  for (int row = 0; row < verdicts_->rowCount(); ++row) {
    const SbcQuantityView& q = view_.quantities[row];
    const bool uniform = q.ecdf.uniform;
    const QStringList cells = {q.name, uniform ? tr("inside") : tr("outside at rank %1").arg(q.ecdf.first_outside - 1),
                               QString::number(q.chiSquare.p_value, 'f', 3),
                               uniform ? tr("uniform") : tr("NOT uniform")};
    for (int column = 0; column < cells.size(); ++column) {
      auto* item = new QTableWidgetItem(cells[column]);
      if (!uniform) item->setForeground(kOutside);
      verdicts_->setItem(row, column, item);
    }
  }
  for (int row : selected) {
    if (row < verdicts_->rowCount()) verdicts_->selectRow(row);
  }
  verdicts_->resizeColumnsToContents();
}

void SbcPanel::showProblems() {
  problems_->clear();
  if (!run_) return;
  std::vector<store::SbcReplicationRecord> problems;
  for (const auto& r : run_->sbc.ended) {
    if (SbcReplications::hadProblems(r)) problems.push_back(r);
  }
  std::sort(problems.begin(), problems.end(),
            [](const auto& a, const auto& b) { return a.replication < b.replication; });
  for (const auto& r : problems) {
    auto* item = new QListWidgetItem(problemText(r), problems_);
    item->setData(Qt::UserRole, r.replication);
  }
}

QStringList SbcPanel::plotted() const {
  QStringList names;
  QList<int> rows;
  for (const QModelIndex& index : verdicts_->selectionModel()->selectedRows()) rows << index.row();
  std::sort(rows.begin(), rows.end());
  if (rows.isEmpty()) {  // those whose ranks are not uniform first
    for (const bool uniform : {false, true}) {
      for (int row = 0; row < static_cast<int>(view_.quantities.size()); ++row) {
        if (view_.quantities[row].ecdf.uniform == uniform) rows << row;
      }
    }
  }
  for (int row : rows) {
    if (row < static_cast<int>(view_.quantities.size()) && names.size() < maxPlotted()) {
      names << view_.quantities[row].name;
    }
  }
  return names;
}

// Per plotted quantity, a row of two plots: its ranks' histogram with each bin's binomial
// 95% interval, and the ECDF difference with the simultaneous band.
void SbcPanel::drawPlot() {
  plot_->clearPlottables();
  plot_->clearItems();
  plot_->plotLayout()->clear();
  delete margins_;  // after the rects that used it
  margins_ = new QCPMarginGroup(plot_);
  const QStringList names = plotted();
  const double k = static_cast<double>(view_.maxRank + 1);
  for (int row = 0; row < names.size(); ++row) {
    const auto found = std::find_if(view_.quantities.begin(), view_.quantities.end(),
                                    [&](const SbcQuantityView& q) { return q.name == names[row]; });
    const SbcQuantityView& q = *found;
    const QColor color = q.ecdf.uniform ? kInside : kOutside;
    auto* histogram = new QCPAxisRect(plot_);
    auto* ecdf = new QCPAxisRect(plot_);
    plot_->plotLayout()->addElement(row, 0, histogram);
    plot_->plotLayout()->addElement(row, 1, ecdf);
    for (QCPAxisRect* rect : {histogram, ecdf}) {
      rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins_);
      rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    }
    QCPAxis *hx = histogram->axis(QCPAxis::atBottom), *hy = histogram->axis(QCPAxis::atLeft);
    QCPAxis *ex = ecdf->axis(QCPAxis::atBottom), *ey = ecdf->axis(QCPAxis::atLeft);
    hy->setLabel(q.name);
    if (row + 1 == names.size()) {
      hx->setLabel(tr("rank"));
      ex->setLabel(tr("fractional rank"));
    }
    // The binomial intervals as shaded boxes behind the bars.
    QCPBars* band = new QCPBars(hx, hy);
    band->setName(tr("binomial band %1").arg(q.name));
    band->setPen(Qt::NoPen);
    band->setBrush(kBand);
    QCPBars* bars = new QCPBars(hx, hy);
    bars->setName(tr("ranks %1").arg(q.name));
    bars->setPen(QPen(color.darker(120)));
    bars->setBrush(QColor(color.red(), color.green(), color.blue(), 150));
    QVector<double> centres, counts, bandTop, bandBase;
    double width = 1;
    for (size_t b = 0; b + 1 < q.binStarts.size(); ++b) {
      const double start = static_cast<double>(q.binStarts[b]), end = static_cast<double>(q.binStarts[b + 1]);
      centres << (start + end) / 2;
      counts << static_cast<double>(q.chiSquare.counts[b]);
      bandBase << static_cast<double>(q.binLower[b]);
      bandTop << static_cast<double>(q.binUpper[b] - q.binLower[b]);
      width = end - start;
    }
    bars->setWidth(width * 0.9);
    band->setWidth(width);
    band->setBaseValue(0);
    // A bar whose base is its interval's lower end: QCPBars stacks on another, so the band
    // is drawn as two stacked bars, the lower one invisible.
    QCPBars* base = new QCPBars(hx, hy);
    base->setPen(Qt::NoPen);
    base->setBrush(Qt::NoBrush);
    base->setWidth(width);
    base->setData(centres, bandBase, true);
    band->moveAbove(base);
    band->setData(centres, bandTop, true);
    bars->setData(centres, counts, true);
    hx->setRange(0, k);
    hy->setRange(0, std::max(*std::max_element(counts.begin(), counts.end()),
                             *std::max_element(bandTop.begin(), bandTop.end()) +
                                 *std::max_element(bandBase.begin(), bandBase.end())) *
                        1.1);

    // The ECDF difference: counts[k] / N - k / K at each z_k, with the band's.
    const double n = static_cast<double>(view_.ranked);
    QVector<double> z, difference, lower, upper;
    for (size_t i = 0; i < q.ecdf.counts.size(); ++i) {
      const double at = static_cast<double>(i) / k;
      z << at;
      difference << static_cast<double>(q.ecdf.counts[i]) / n - at;
      lower << static_cast<double>(q.ecdf.band.lower[i]) / n - at;
      upper << static_cast<double>(q.ecdf.band.upper[i]) / n - at;
    }
    QCPGraph* low = plot_->addGraph(ex, ey);
    low->setName(tr("band lower %1").arg(q.name));
    low->setLineStyle(QCPGraph::lsStepLeft);
    low->setPen(QPen(kBandEdge));
    low->setData(z, lower, true);
    QCPGraph* high = plot_->addGraph(ex, ey);
    high->setName(tr("band upper %1").arg(q.name));
    high->setLineStyle(QCPGraph::lsStepLeft);
    high->setPen(QPen(kBandEdge));
    high->setBrush(kBand);
    high->setChannelFillGraph(low);
    high->setData(z, upper, true);
    QCPGraph* line = plot_->addGraph(ex, ey);
    line->setName(tr("ECDF difference %1").arg(q.name));
    line->setLineStyle(QCPGraph::lsStepLeft);
    line->setPen(QPen(color, 1.8));
    line->setData(z, difference, true);
    ex->setRange(0, 1);
    ey->rescale();
    const double reach = std::max(std::abs(ey->range().lower), std::abs(ey->range().upper)) * 1.1;
    ey->setRange(-reach, reach);
  }
  plot_->replot();
}

bool SbcPanel::exportTo(const QString& path, QString* error) {
  drawPlot();
  return exportPlot(plot_, path, error);
}

}  // namespace variate::ui
