#include "ui/docks/model_panel.h"

#include <QLabel>
#include <QListWidget>
#include <QPlainTextDocumentLayout>
#include <QSplitter>
#include <QVBoxLayout>

#include "ui/document/project_document.h"
#include "ui/editor/code_editor.h"
#include "ui/editor/model_highlighter.h"
#include "ui/modeling/model_checker.h"

namespace variate::ui {

ModelPanel::ModelPanel(QWidget* parent)
    : QWidget(parent), editor_(new CodeEditor), status_(new QLabel), problems_(new QListWidget),
      checker_(new ModelChecker(this)) {
  editor_->setObjectName("modelEditor");
  problems_->setObjectName("modelProblems");
  problems_->setMaximumHeight(110);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(editor_, 1);
  layout->addWidget(status_);
  layout->addWidget(problems_);
  problems_->hide();
  connect(checker_, &ModelChecker::checked, this, [this](const ModelCheck& check) {
    if (document_) document_->setModelCheck(check);
  });
  connect(problems_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
    editor_->goTo(item->data(Qt::UserRole).toInt(), item->data(Qt::UserRole + 1).toInt());
  });
  connect(problems_, &QListWidget::itemClicked, problems_, &QListWidget::itemActivated);
}

void ModelPanel::setDocument(ProjectDocument* document) {
  for (const auto& connection : connections_) disconnect(connection);
  connections_.clear();
  delete highlighter_.data();
  document_ = document;
  editor_->setEnabled(document != nullptr);
  if (!document) {  // let go of the closing project's text
    auto* empty = new QTextDocument(editor_);
    empty->setDocumentLayout(new QPlainTextDocumentLayout(empty));
    editor_->setDocument(empty);
    editor_->setMarks({});
    return;
  }
  editor_->setDocument(document->modelDocument());
  highlighter_ = new ModelHighlighter(document->modelDocument());
  connections_ << connect(document->modelDocument(), &QTextDocument::contentsChanged, this, &ModelPanel::requestCheck);
  connections_ << connect(document, &ProjectDocument::currentDataSetChanged, this, &ModelPanel::requestCheck);
  connections_ << connect(document, &ProjectDocument::modelChecked, this, &ModelPanel::showCheck);
  const DataSetEntry* data = document->currentDataSet();
  checker_->requestNow(document->modelName() + ".vmod", document->modelText(), data ? data->json : QString());
}

void ModelPanel::requestCheck() {
  if (!document_) return;
  const DataSetEntry* data = document_->currentDataSet();
  checker_->request(document_->modelName() + ".vmod", document_->modelText(), data ? data->json : QString());
}

void ModelPanel::showCheck(const ModelCheck& check) {
  editor_->setMarks(check.marks);
  problems_->clear();
  for (const auto& mark : check.marks) {
    const QString severity = mark.severity == ModelMark::Severity::Error     ? tr("error")
                             : mark.severity == ModelMark::Severity::Warning ? tr("warning")
                                                                             : tr("note");
    auto* item = new QListWidgetItem(QString("%1:%2: %3: %4").arg(mark.line).arg(mark.column).arg(severity, mark.message));
    item->setData(Qt::UserRole, mark.line);
    item->setData(Qt::UserRole + 1, mark.column);
    item->setForeground(mark.severity == ModelMark::Severity::Error ? QColor("#c62828") : QColor("#ef6c00"));
    problems_->addItem(item);
  }
  problems_->setVisible(!check.marks.isEmpty());
  const int errors = check.errorCount();
  if (errors) {
    status_->setText(tr("<span style='color:#c62828'>✗ %n error(s)</span>", "", errors));
  } else if (check.deep) {
    status_->setText(tr("<span style='color:#2e7d32'>✓ checks: %n network(s), trained by amortized VI</span>", "",
                        check.networks.size()));
  } else if (check.compiled) {
    status_->setText(tr("<span style='color:#2e7d32'>✓ compiles: %n parameter block(s)</span>", "", check.parameters.size()));
  } else {
    status_->setText(tr("✓ checks; add a data set to compile it"));
  }
}

}  // namespace variate::ui
