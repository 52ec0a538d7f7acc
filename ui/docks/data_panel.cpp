#include "ui/docks/data_panel.h"

#include <QComboBox>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "ui/docks/data_table_model.h"
#include "ui/document/project_document.h"

namespace variate::ui {

DataPanel::DataPanel(QWidget* parent)
    : QWidget(parent), sets_(new QComboBox), variables_(new QTreeWidget), table_(new QTableView),
      model_(new DataTableModel(this)), error_(new QLabel) {
  auto* import = new QToolButton;
  import->setIcon(QIcon(":/icons/open.svg"));
  import->setToolTip(tr("Import a data set (CmdStan JSON)"));
  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Data set")));
  top->addWidget(sets_, 1);
  top->addWidget(import);
  variables_->setObjectName("dataVariables");
  variables_->setHeaderLabels({tr("Variable"), tr("Type")});
  variables_->setRootIsDecorated(false);
  variables_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->setModel(model_);
  table_->setObjectName("dataTable");
  error_->setWordWrap(true);
  error_->setStyleSheet("color: #c62828");
  error_->hide();
  auto* splitter = new QSplitter(Qt::Vertical);
  splitter->addWidget(variables_);
  splitter->addWidget(table_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(top);
  layout->addWidget(error_);
  layout->addWidget(splitter, 1);
  connect(import, &QToolButton::clicked, this, &DataPanel::importRequested);
  connect(sets_, &QComboBox::currentIndexChanged, this, [this](int index) {
    if (!showing_ && document_) document_->selectDataSet(index);
  });
  connect(variables_, &QTreeWidget::currentItemChanged, this, &DataPanel::showValues);
}

void DataPanel::setDocument(ProjectDocument* document) {
  for (const auto& connection : connections_) disconnect(connection);
  connections_.clear();
  document_ = document;
  if (document) {
    connections_ << connect(document, &ProjectDocument::dataSetsChanged, this, &DataPanel::showDataSets);
    connections_ << connect(document, &ProjectDocument::currentDataSetChanged, this, &DataPanel::showVariables);
  }
  showDataSets();
}

void DataPanel::showDataSets() {
  showing_ = true;
  sets_->clear();
  if (document_) {
    for (const auto& set : document_->dataSets()) sets_->addItem(set.name);
  }
  showing_ = false;
  showVariables(document_ ? document_->currentDataSetIndex() : -1);
}

void DataPanel::showVariables(int index) {
  showing_ = true;
  sets_->setCurrentIndex(index);
  showing_ = false;
  variables_->clear();
  model_->setVariable(QJsonValue(), {});
  const DataSetEntry* set = document_ ? document_->currentDataSet() : nullptr;
  error_->setVisible(set && !set->error.isEmpty());
  if (!set) return;
  error_->setText(set->error);
  for (const auto& variable : set->variables) {
    auto* item = new QTreeWidgetItem(variables_, {variable.name, variable.typeText()});
    item->setData(0, Qt::UserRole, variable.name);
  }
  if (variables_->topLevelItemCount()) variables_->setCurrentItem(variables_->topLevelItem(0));
}

void DataPanel::showValues() {
  const DataSetEntry* set = document_ ? document_->currentDataSet() : nullptr;
  QTreeWidgetItem* item = variables_->currentItem();
  if (!set || !item) return;
  const QString name = item->data(0, Qt::UserRole).toString();
  const QJsonObject json = QJsonDocument::fromJson(set->json.toUtf8()).object();
  for (const auto& variable : set->variables) {
    if (variable.name == name) model_->setVariable(json.value(name), variable.shape);
  }
}

}  // namespace variate::ui
