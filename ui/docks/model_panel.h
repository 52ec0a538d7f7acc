#pragma once
/// The model text: an editor on the document's text with syntax colours, checked by the
/// engine's compiler as the user types (debounced, off the UI thread); its marks are
/// underlined at their line:column and listed below, a click on one jumps there. Above
/// it, bars offer the model file's and data file's changes made outside the studio.

#include <QPointer>
#include <QWidget>

class QLabel;
class QListWidget;

namespace variate::ui {

class CodeEditor;
class OutsideChangeBar;
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
  /// Offers the model file's text, changed outside, and the data file's.
  OutsideChangeBar* modelFileBar() const { return modelFileBar_; }
  OutsideChangeBar* dataFileBar() const { return dataFileBar_; }

 private:
  void requestCheck();
  void showCheck(const ModelCheck& check);
  /// The model file holds `text`: changed on disk, or different at opening.
  void offerModelFile(const QString& text, bool atOpening);

  QPointer<ProjectDocument> document_;
  OutsideChangeBar* modelFileBar_;
  OutsideChangeBar* dataFileBar_;
  CodeEditor* editor_;
  QLabel* status_;
  QListWidget* problems_;
  ModelChecker* checker_;
  QPointer<ModelHighlighter> highlighter_;  // a child of the text it colours
  QList<QMetaObject::Connection> connections_;
};

}  // namespace variate::ui
