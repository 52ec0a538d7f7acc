#pragma once
/// The model text editor: line numbers, the checker's marks underlined at their
/// line:column with the message on hover and a marker in the gutter. Undo and redo keys
/// go to the project's undo stack (the window's actions), not to the text alone.

#include <QPlainTextEdit>

#include "ui/document/model_check.h"

namespace variate::ui {

class CodeEditor : public QPlainTextEdit {
  Q_OBJECT

 public:
  explicit CodeEditor(QWidget* parent = nullptr);

  void setMarks(const QList<ModelMark>& marks);
  const QList<ModelMark>& marks() const { return marks_; }
  /// Puts the cursor on a 1-based line and column.
  void goTo(int line, int column);
  int gutterWidth() const;

 protected:
  bool event(QEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;

 private:
  friend class LineNumberArea;
  void paintGutter(QPaintEvent* event);
  void updateGutter(const QRect& rect, int dy);
  void applyMarks();
  /// The text range of a mark (columns count bytes in the engine: convert from UTF-8).
  QTextCursor cursorFor(const ModelMark& mark) const;
  const ModelMark* markAt(const QPoint& position) const;

  QWidget* gutter_;
  QList<ModelMark> marks_;
};

}  // namespace variate::ui
