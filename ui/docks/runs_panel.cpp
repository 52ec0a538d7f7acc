#include "ui/docks/runs_panel.h"

#include "engine/services/setting_table.h"

#include <QHeaderView>
#include <QMenu>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "ui/document/project_document.h"

namespace variate::ui {
namespace {

enum Column { Name, Method, Status, Chains, Draws, Started, Duration, ColumnCount };

QColor statusColor(RunStatus status) {
  switch (status) {
    case RunStatus::Running: return QColor("#1565c0");
    case RunStatus::Paused: return QColor("#ef6c00");
    case RunStatus::Finished: return QColor("#2e7d32");
    case RunStatus::Stopped: return QColor("#6d4c41");
    case RunStatus::Interrupted:
    case RunStatus::Failed: return QColor("#c62828");
  }
  return {};
}

}  // namespace

RunsPanel::RunsPanel(QWidget* parent) : QWidget(parent), tree_(new QTreeWidget) {
  tree_->setObjectName("runsTree");
  tree_->setColumnCount(ColumnCount);
  tree_->setHeaderLabels({tr("Run"), tr("Method"), tr("Status"), tr("Chains"), tr("Draws"), tr("Started"), tr("Duration")});
  tree_->setRootIsDecorated(false);
  tree_->setContextMenuPolicy(Qt::CustomContextMenu);
  tree_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  tree_->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::DoubleClicked);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(tree_);
  connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
    if (!updating_ && item && document_) document_->runs()->setCurrent(item->data(0, Qt::UserRole).toLongLong());
  });
  connect(tree_, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int column) {
    if (updating_ || column != Name || !document_) return;
    const qint64 id = item->data(0, Qt::UserRole).toLongLong();
    if (!document_->renameRun(id, item->text(Name))) update(id);  // shows the name kept
  });
  connect(tree_, &QTreeWidget::customContextMenuRequested, this, &RunsPanel::showMenu);
  connect(&timer_, &QTimer::timeout, this, [this] {
    const QSet<qint64> ids = std::exchange(stale_, {});
    for (qint64 id : ids) update(id);
  });
  timer_.start(500);
}

void RunsPanel::setDocument(ProjectDocument* document) {
  for (const auto& connection : connections_) disconnect(connection);
  connections_.clear();
  document_ = document;
  if (document) {
    RunList* runs = document->runs();
    connections_ << connect(runs, &RunList::runAdded, this, &RunsPanel::rebuild);
    connections_ << connect(runs, &RunList::runRemoved, this, &RunsPanel::rebuild);
    connections_ << connect(runs, &RunList::runChanged, this, &RunsPanel::update);
    // Live draws only change the counts: refreshed twice a second, not at every batch.
    connections_ << connect(runs, &RunList::drawsAppended, this, [this](qint64 id) { stale_.insert(id); });
    connections_ << connect(runs, &RunList::elboAppended, this, [this](qint64 id) { stale_.insert(id); });  // epochs
    connections_ << connect(runs, &RunList::drawsReset, this, &RunsPanel::update);
    connections_ << connect(runs, &RunList::sbcChanged, this, [this](qint64 id) { stale_.insert(id); });
    connections_ << connect(runs, &RunList::currentChanged, this, [this](qint64 id) {
      updating_ = true;
      if (auto* item = itemOf(id)) tree_->setCurrentItem(item);
      updating_ = false;
    });
    connections_ << connect(runs, &RunList::comparisonChanged, this, &RunsPanel::rebuild);
  }
  rebuild();
}

QTreeWidgetItem* RunsPanel::itemOf(qint64 id) const {
  for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
    if (tree_->topLevelItem(i)->data(0, Qt::UserRole).toLongLong() == id) return tree_->topLevelItem(i);
  }
  return nullptr;
}

void RunsPanel::rebuild() {
  updating_ = true;
  tree_->clear();
  if (document_) {
    for (qint64 id : document_->runs()->ids()) {
      auto* item = new QTreeWidgetItem(tree_);
      item->setData(0, Qt::UserRole, id);
      item->setFlags(item->flags() | Qt::ItemIsEditable);
    }
  }
  updating_ = false;
  if (document_) {
    for (qint64 id : document_->runs()->ids()) update(id);
    updating_ = true;
    if (auto* item = itemOf(document_->runs()->currentId())) tree_->setCurrentItem(item);
    updating_ = false;
  }
}

void RunsPanel::update(qint64 id) {
  QTreeWidgetItem* item = itemOf(id);
  const RunPtr run = document_ ? document_->runs()->run(id) : nullptr;
  if (!item || !run) return;
  updating_ = true;
  const bool compared = document_->runs()->comparisonId() == id;
  item->setText(Name, run->name);
  item->setIcon(Name, compared ? QIcon(":/icons/compare.svg") : QIcon());
  item->setToolTip(Name, compared ? tr("Compared with the current run") : QString());
  item->setText(Method, run->config.onSeveralProcesses()
                           ? tr("%1 on %2 processes").arg(methodName(run->config.method)).arg(*run->config.settings.get(services::setting::nproc))
                           : methodName(run->config.method));
  item->setText(Status, statusName(run->status));
  item->setForeground(Status, statusColor(run->status));
  item->setToolTip(Status, run->message);
  item->setText(Chains, QString::number(run->config.method == services::Method::nuts ? run->config.settings.get(services::setting::chains) : 1));
  if (run->config.method == services::Method::sbc) {  // an SBC run's progress: its replications
    const int planned = run->config.settings.get(services::setting::replications);
    item->setText(Chains, QString());
    item->setText(Draws, run->drawsLoaded ? tr("%1/%2 replications").arg(run->sbc.ended.size()).arg(planned)
                                          : tr("%1 replications").arg(planned));
  } else if (run->config.method == services::Method::amortized) {  // a training's progress: its epochs
    const int done = run->elbo.epochs.empty() ? 0 : run->elbo.epochs.back().epoch;
    item->setText(Draws, run->drawsLoaded ? tr("%1/%2 epochs").arg(done).arg(run->config.epochs())
                                          : tr("%1 epochs").arg(run->config.epochs()));
  } else {
    // The draws there are (a stopped run has fewer than it asked for); a live run's of those asked for.
    const qint64 stored = run->drawsLoaded ? run->samplingDrawsPerChain() : run->storedDraws;
    item->setText(Draws, run->isActive() ? tr("%1/%2").arg(stored).arg(run->config.settings.get(services::setting::draws))
                                         : QString::number(stored));
  }
  item->setText(Started, run->started.toString("yyyy-MM-dd HH:mm:ss"));
  const QDateTime end = run->ended.isValid() ? run->ended : QDateTime::currentDateTime();
  item->setText(Duration, QString("%1 s").arg(run->started.msecsTo(end) / 1000.0, 0, 'f', 1));
  updating_ = false;
}

void RunsPanel::showMenu(const QPoint& position) {
  QTreeWidgetItem* item = tree_->itemAt(position);
  if (!item || !document_) return;
  const qint64 id = item->data(0, Qt::UserRole).toLongLong();
  RunList* runs = document_->runs();
  const RunPtr run = runs->run(id);
  QMenu menu;
  menu.addAction(tr("Show"), this, [runs, id] { runs->setCurrent(id); });
  QAction* compare = menu.addAction(QIcon(":/icons/compare.svg"), tr("Compare with the current run"), this,
                                    [runs, id] { runs->setComparison(id); });
  compare->setEnabled(id != runs->currentId());
  if (runs->comparisonId() >= 0) menu.addAction(tr("Stop comparing"), this, [runs] { runs->setComparison(-1); });
  menu.addSeparator();
  menu.addAction(tr("Rename"), this, [this, item] { tree_->editItem(item, Name); });
  const bool training = run && run->config.method == services::Method::amortized;
  const bool sbc = run && run->config.method == services::Method::sbc;
  QAction* more = menu.addAction(QIcon(":/icons/run-more.svg"),
                                 training ? tr("Continue training")
                                 : sbc    ? tr("Continue SBC")
                                          : tr("Run more draws"),
                                 this, [this, id] { emit runMoreRequested(id); });
  more->setEnabled(
      run && !run->isActive() &&
      (training || run->config.method == services::Method::nuts || (sbc && run->status != RunStatus::Finished)));
  menu.addAction(sbc ? tr("Export ranks as CSV…") : tr("Export draws as CSV…"), this,
                 [this, id] { emit exportDrawsRequested(id); });
  menu.addSeparator();
  QAction* remove = menu.addAction(tr("Delete…"), this, [this, id] { emit deleteRequested(id); });
  remove->setEnabled(run && !run->isActive());
  menu.exec(tree_->viewport()->mapToGlobal(position));
}

}  // namespace variate::ui
