#pragma once
/// The model text: an editor on the document's text with syntax colours, checked by the
/// engine's compiler as the user types (debounced, off the UI thread); its marks are
/// underlined at their line:column and listed below, a click on one jumps there.

#include <QPointer>
#include <QWidget>

class QLabel;
class QListWidget;

namespace variate::ui {

class CodeEditor;
class ModelChecker;
class ModelHighlighter;
class ProjectDocument;
struct ModelCheck;

class ModelPanel : public QWidget {
  Q_OBJECT

 public:
  explicit ModelPanel(QWidget* parent = nullptr);
  void setDocument(ProjectDocument* document);
  CodeEditor* editor() const { return editor_; }
  ModelChecker* checker() const { return checker_; }
  QListWidget* problems() const { return problems_; }

 private:
  void requestCheck();
  void showCheck(const ModelCheck& check);

  QPointer<ProjectDocument> document_;
  CodeEditor* editor_;
  QLabel* status_;
  QListWidget* problems_;
  ModelChecker* checker_;
  QPointer<ModelHighlighter> highlighter_;  // a child of the text it colours
  QList<QMetaObject::Connection> connections_;
};

}  // namespace variate::ui
