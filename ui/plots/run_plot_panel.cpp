#include "ui/plots/run_plot_panel.h"

#include <QElapsedTimer>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "ui/document/project_document.h"
#include "ui/plots/export_button.h"
#include "ui/plots/parameter_picker.h"
#include "ui/plots/plot_export.h"

namespace variate::ui {

RunPlotPanel::RunPlotPanel(QWidget* parent)
    : QWidget(parent), picker_(new ParameterPicker), plot_(new QCustomPlot), tools_(new QHBoxLayout), throttle_(this) {
  plot_->setNoAntialiasingOnDrag(true);
  plot_->setAutoAddPlottableToLegend(false);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  QToolButton* exportButton =
      makeExportButton(this, [this](const QString& path, QString* error) { return exportTo(path, error); });
  tools_->setContentsMargins(0, 0, 0, 0);
  tools_->addStretch(1);
  tools_->addWidget(exportButton);
  auto* right = new QWidget;
  auto* rightLayout = new QVBoxLayout(right);
  rightLayout->setContentsMargins(0, 0, 0, 0);
  rightLayout->addLayout(tools_);
  rightLayout->addWidget(plot_, 1);
  auto* splitter = new QSplitter;
  splitter->addWidget(picker_);
  splitter->addWidget(right);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({160, 600});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(splitter);
  connect(picker_, &ParameterPicker::selectionChanged, this, &RunPlotPanel::onPicked);
  connect(&throttle_, &RefreshThrottle::refresh, this, &RunPlotPanel::refreshNow);
}

void RunPlotPanel::refreshNow() {
  // A hidden panel (a closed dock, or a background tab, which Qt moves out of sight
  // rather than hiding) only keeps its data; it draws when shown.
  if (!isVisible() || visibleRegion().isEmpty()) {
    stale_ = true;
    return;
  }
  stale_ = false;
  QElapsedTimer timer;
  timer.start();
  redraw();
  plot_->replot();
  // Keep drawing near 3% of a core, so sampling keeps the rest: a plot that takes 4 ms
  // redraws at most every 120 ms (and never more than ~30 times a second).
  throttle_.setIntervalMs(static_cast<int>(timer.elapsed() * 30));
  emit refreshed();
}

void RunPlotPanel::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (stale_) requestRefresh();
}

void RunPlotPanel::setDocument(ProjectDocument* document) {
  for (const auto& connection : connections_) disconnect(connection);
  connections_.clear();
  document_ = document;
  run_.reset();
  if (!document) {
    picker_->setNames({});
    return;
  }
  RunList* runs = document->runs();
  connections_ << connect(runs, &RunList::currentChanged, this, &RunPlotPanel::setRun);
  connections_ << connect(runs, &RunList::comparisonChanged, this, [this] {
    comparisonChanged();
    requestRefresh();
  });
  connections_ << connect(runs, &RunList::drawsAppended, this, [this](qint64 id, const DrawBlocks& blocks) {
    if (run_ && id == run_->id) {
      append(blocks);
      requestRefresh();
    }
  });
  connections_ << connect(runs, &RunList::drawsReset, this, [this](qint64 id) {
    if (run_ && id == run_->id) setRun(id);
    if (comparison() && id == comparison()->id) comparisonChanged();
    requestRefresh();
  });
  connections_ << connect(runs, &RunList::runChanged, this, [this](qint64 id) {
    if (run_ && id == run_->id) requestRefresh();
  });
  setRun(runs->currentId());
}

RunPtr RunPlotPanel::comparison() const { return document_ ? document_->runs()->comparison() : nullptr; }

void RunPlotPanel::setRun(qint64 id) {
  run_ = document_ ? document_->runs()->run(id) : nullptr;
  const QStringList names = run_ ? run_->columnNames : QStringList();
  if (names != picker_->names()) {
    picker_->setNames(names);  // emits selectionChanged, which rebuilds
  } else {
    onPicked(picker_->selected());
  }
}

void RunPlotPanel::onPicked(const QStringList& names) {
  plotted_ = names.mid(0, maxPlotted());
  rebuild();
  requestRefresh();
}

QList<QCPAxisRect*> RunPlotPanel::resetAxisRects(int count) {
  plot_->clearItems();
  plot_->clearPlottables();
  plot_->plotLayout()->clear();
  auto* group = new QCPMarginGroup(plot_);
  QList<QCPAxisRect*> rects;
  for (int i = 0; i < std::max(count, 1); ++i) {
    auto* rect = new QCPAxisRect(plot_);
    plot_->plotLayout()->addElement(i, 0, rect);
    rect->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    rect->setupFullAxesBox(false);
    rect->axis(QCPAxis::atTop)->setVisible(false);
    rect->axis(QCPAxis::atRight)->setVisible(false);
    rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    rects << rect;
  }
  return count > 0 ? rects : QList<QCPAxisRect*>();
}

bool RunPlotPanel::exportTo(const QString& path, QString* error) {
  redraw();
  plot_->replot();
  return exportPlot(plot_, path, error);
}

}  // namespace variate::ui
