#include "ui/docks/workers_panel.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "ui/docks/known_workers.h"
#include "ui/engine/worker_probe.h"

namespace variate::ui {
namespace {

enum Column { Address, State, Cores, Devices, Jobs };
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
  list_->setHeaderLabels({tr("Worker"), tr("State"), tr("Cores"), tr("Devices"), tr("Jobs")});
  list_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
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
  workers << WorkerRef{worker.address, worker.tokenFile, worker.caFile, QString()};
  setKnownWorkers(workers);
  rebuild();
  poll();
  emit workersChanged();
  return true;
}

void WorkersPanel::addFromFields() {
  QString error;
  if (addWorker({address_->text().trimmed(), tokenFile_->text().trimmed(), caFile_->text().trimmed(), {}}, &error)) {
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
  workers.removeIf([&](const WorkerRef& known) { return known.address == item->text(Address); });
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
    auto* item = new QTreeWidgetItem(list_, {worker.address, tr("asking…")});
    item->setToolTip(Address, tr("token: %1%2").arg(worker.tokenFile, worker.caFile.isEmpty() ? QString() : tr("; CA: ") + worker.caFile));
  }
}

void WorkersPanel::showStatus(const WorkerStatus& status) {
  const auto items = list_->findItems(status.address, Qt::MatchExactly, Address);
  if (items.isEmpty()) return;  // removed meanwhile
  QTreeWidgetItem* item = items.front();
  qDeleteAll(item->takeChildren());
  if (!status.reachable) {
    item->setText(State, tr("unreachable"));
    item->setToolTip(State, status.error);
    item->setForeground(State, QColor("#c62828"));
    for (int c : {Cores, Devices, Jobs}) item->setText(c, QString());
    return;
  }
  item->setText(State, tr("reachable"));
  item->setToolTip(State, QString());
  item->setForeground(State, QColor("#2e7d32"));
  item->setText(Cores, QString::number(status.cores));
  item->setText(Devices, status.devices.join(", "));
  item->setText(Jobs, tr("%1 running (at most %2 at once)").arg(status.runningJobs).arg(status.maxJobs));
  for (const QString& job : status.jobs) new QTreeWidgetItem(item, {job});
  item->setExpanded(true);
}

}  // namespace variate::ui
