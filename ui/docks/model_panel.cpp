#include "ui/docks/model_panel.h"

#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextDocumentLayout>
#include <QSplitter>
#include <QVBoxLayout>

#include "ui/docks/outside_change_bar.h"
#include "ui/document/line_diff.h"
#include "ui/document/project_document.h"
#include "ui/editor/code_editor.h"
#include "ui/editor/model_highlighter.h"
#include "ui/modeling/model_checker.h"

namespace variate::ui {

ModelPanel::ModelPanel(QWidget* parent)
    : QWidget(parent), modelFileBar_(new OutsideChangeBar), dataFileBar_(new OutsideChangeBar), editor_(new CodeEditor), status_(new QLabel), problems_(new QListWidget),
      checker_(new ModelChecker(this)) {
  editor_->setObjectName("modelEditor");
  problems_->setObjectName("modelProblems");
  problems_->setMaximumHeight(110);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  modelFileBar_->setObjectName("modelFileBar");
  dataFileBar_->setObjectName("dataFileBar");
  layout->addWidget(modelFileBar_);
  layout->addWidget(dataFileBar_);
  layout->addWidget(editor_, 1);
  connect(modelFileBar_, &OutsideChangeBar::accepted, this, [this] {
    QString error;
    if (document_ && !document_->useModelFile(&error) && !error.isEmpty()) document_->log(error);
  });
  connect(modelFileBar_, &OutsideChangeBar::kept, this, [this] {
    if (document_) document_->keepProjectModel();
  });
  connect(dataFileBar_, &OutsideChangeBar::accepted, this, [this] {
    QString error;
    if (document_ && !document_->reloadDataFile(&error) && !error.isEmpty()) document_->log(error);
  });
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
  modelFileBar_->hide();
  dataFileBar_->hide();
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
  connections_ << connect(document, &ProjectDocument::modelFileChanged, this,
                          [this](const QString& text) { offerModelFile(text, false); });
  connections_ << connect(document, &ProjectDocument::dataFileChanged, this, [this] {
    dataFileBar_->offer(tr("%1 changed on disk.").arg(QFileInfo(document_->dataFilePath()).fileName()),
                        tr("Reload data"), tr("Ignore"), QString(), false);
  });
  if (const auto differs = document->modelFileDiffers()) offerModelFile(*differs, true);
  const DataSetEntry* data = document->currentDataSet();
  checker_->requestNow(document->modelName() + ".vmod", document->modelText(), data ? data->json : QString());
}

void ModelPanel::offerModelFile(const QString& text, bool atOpening) {
  const QString file = QFileInfo(document_->modelFilePath()).fileName();
  const QString differences = lineDifferences(document_->modelText(), text);
  if (atOpening) {
    modelFileBar_->offer(tr("%1 differs from the model saved in this project (edited outside since).").arg(file),
                         tr("Use the file's text"), tr("Keep the project's text"), differences, true);
    return;
  }
  // Unsaved edits would be replaced: the differences are shown before the choice.
  const bool edits = document_->isModified();
  modelFileBar_->offer(edits ? tr("%1 changed on disk; the editor has unsaved edits.").arg(file)
                             : tr("%1 changed on disk.").arg(file),
                       tr("Reload"), tr("Keep the editor's text"), differences, edits);
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
