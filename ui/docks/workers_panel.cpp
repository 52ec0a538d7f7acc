#include "ui/docks/workers_panel.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "ui/docks/known_workers.h"
#include "ui/workers/worker_probe.h"

namespace variate::ui {
namespace {

constexpr int kPollMs = 3000;

}  // namespace

WorkersPanel::WorkersPanel(QWidget* parent)
    : QWidget(parent), address_(new QLineEdit), tokenFile_(new QLineEdit), caFile_(new QLineEdit),
      add_(new QPushButton(tr("Add worker"))), remove_(new QPushButton(tr("Remove"))), link_(new QLabel),
      list_(new QTreeWidget), timer_(new QTimer(this)), probe_(new WorkerProbe(this)) {
  address_->setObjectName("workerAddress");
  address_->setPlaceholderText("gpu1.example.org:7070");
  tokenFile_->setObjectName("workerTokenFile");
  tokenFile_->setPlaceholderText(tr("file holding the worker's token"));
  caFile_->setObjectName("workerCaFile");
  caFile_->setPlaceholderText(tr("CA certificate (PEM) for TLS; empty: none"));
  add_->setObjectName("addWorker");
  remove_->setObjectName("removeWorker");
  list_->setObjectName("workerList");
  // One column: a worker's line says all it answered, its jobs below it (a dock is narrow).
  list_->setHeaderHidden(true);
  list_->setRootIsDecorated(true);
  link_->setObjectName("workerLink");
  link_->setWordWrap(true);

  auto* form = new QFormLayout;
  form->addRow(tr("Address"), address_);
  form->addRow(tr("Token file"), tokenFile_);
  form->addRow(tr("CA file"), caFile_);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(add_);
  buttons->addWidget(remove_);
  buttons->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addLayout(buttons);
  layout->addWidget(link_);
  layout->addWidget(list_, 1);

  connect(add_, &QPushButton::clicked, this, &WorkersPanel::addFromFields);
  connect(remove_, &QPushButton::clicked, this, &WorkersPanel::removeSelected);
  connect(probe_, &WorkerProbe::probed, this, &WorkersPanel::showStatus);
  connect(timer_, &QTimer::timeout, this, &WorkersPanel::poll);
  timer_->start(kPollMs);
  rebuild();
  poll();
}

bool WorkersPanel::addWorker(const WorkerRef& worker, QString* error) {
  if (!QRegularExpression("^[^\\s:]+:\\d{1,5}$").match(worker.address).hasMatch()) {
    *error = tr("Address: '%1' is not HOST:PORT").arg(worker.address);
    return false;
  }
  if (worker.tokenFile.isEmpty()) {
    *error = tr("Token file: give the file that holds the worker's token");
    return false;
  }
  QList<WorkerRef> workers = knownWorkers();
  workers.removeIf([&](const WorkerRef& known) { return known.address == worker.address; });
  workers << worker;
  setKnownWorkers(workers);
  rebuild();
  poll();
  emit workersChanged();
  return true;
}

void WorkersPanel::addFromFields() {
  QString error;
  if (addWorker({address_->text().trimmed(), tokenFile_->text().trimmed(), caFile_->text().trimmed()}, &error)) {
    address_->clear();
    link_->clear();
  } else {
    link_->setText(QString("<span style='color:#c62828'>%1</span>").arg(error.toHtmlEscaped()));
  }
}

void WorkersPanel::removeSelected() {
  QTreeWidgetItem* item = list_->currentItem();
  while (item && item->parent()) item = item->parent();
  if (!item) return;
  QList<WorkerRef> workers = knownWorkers();
  workers.removeIf([&](const WorkerRef& known) { return known.address == item->data(0, Qt::UserRole).toString(); });
  setKnownWorkers(workers);
  rebuild();
  emit workersChanged();
}

void WorkersPanel::showLink(const QString& address, const QString& state) {
  if (state.isEmpty()) {
    link_->clear();
    return;
  }
  const QString color = state == "connected" ? "#2e7d32" : state == "reconnecting" ? "#ef6c00" : "#c62828";
  link_->setText(tr("This studio's run on %1: <b style='color:%2'>%3</b>").arg(address.toHtmlEscaped(), color, state));
}

void WorkersPanel::poll() {
  // One probe at a time: an unreachable worker takes seconds to give up on.
  if (!probe_->busy()) probe_->probe(knownWorkers());
}

void WorkersPanel::rebuild() {
  list_->clear();
  for (const WorkerRef& worker : knownWorkers()) {
    auto* item = new QTreeWidgetItem(list_, {tr("%1: asking…").arg(worker.address)});
    item->setData(0, Qt::UserRole, worker.address);
    item->setToolTip(0, tr("token file: %1%2").arg(worker.tokenFile, worker.caFile.isEmpty() ? QString() : tr("; CA: ") + worker.caFile));
  }
}

void WorkersPanel::showStatus(const WorkerStatus& status) {
  QTreeWidgetItem* item = itemOf(status.address);
  if (!item) return;  // removed meanwhile
  qDeleteAll(item->takeChildren());
  if (!status.reachable) {
    item->setText(0, tr("%1: unreachable").arg(status.address));
    new QTreeWidgetItem(item, {status.error});
    item->setForeground(0, QColor("#c62828"));
    item->setExpanded(true);
    return;
  }
  item->setText(0, tr("%1: reachable · %2 cores · %3 · %4 of %5 job(s) running")
                       .arg(status.address)
                       .arg(status.cores)
                       .arg(status.devices.join(", "))
                       .arg(status.runningJobs)
                       .arg(status.maxJobs));
  item->setForeground(0, QColor("#2e7d32"));
  for (const QString& job : status.jobs) new QTreeWidgetItem(item, {job});
  item->setExpanded(true);
}

QTreeWidgetItem* WorkersPanel::itemOf(const QString& address) const {
  for (int i = 0; i < list_->topLevelItemCount(); ++i) {
    if (list_->topLevelItem(i)->data(0, Qt::UserRole).toString() == address) return list_->topLevelItem(i);
  }
  return nullptr;
}

}  // namespace variate::ui
