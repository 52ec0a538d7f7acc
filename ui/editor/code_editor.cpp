#include "ui/editor/code_editor.h"

#include <QMenu>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

namespace variate::ui {

class LineNumberArea : public QWidget {
 public:
  explicit LineNumberArea(CodeEditor* editor) : QWidget(editor), editor_(editor) {}
  QSize sizeHint() const override { return {editor_->gutterWidth(), 0}; }

 protected:
  void paintEvent(QPaintEvent* event) override { editor_->paintGutter(event); }

 private:
  CodeEditor* editor_;
};

namespace {

bool isUndoRedo(QKeyEvent* key) {
  return key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo);
}

// Column in characters of a 1-based byte column on a line.
int characterColumn(const QString& line, int byteColumn) {
  const QByteArray bytes = line.toUtf8();
  const int byteOffset = std::clamp(byteColumn - 1, 0, static_cast<int>(bytes.size()));
  return QString::fromUtf8(bytes.left(byteOffset)).size();
}

}  // namespace

CodeEditor::CodeEditor(QWidget* parent) : QPlainTextEdit(parent), gutter_(new LineNumberArea(this)) {
  QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  font.setPointSize(std::max(font.pointSize(), 10));
  setFont(font);
  setLineWrapMode(QPlainTextEdit::NoWrap);
  setTabStopDistance(fontMetrics().horizontalAdvance(' ') * 2);
  setMouseTracking(true);
  connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { setViewportMargins(gutterWidth(), 0, 0, 0); });
  connect(this, &QPlainTextEdit::updateRequest, this, &CodeEditor::updateGutter);
  setViewportMargins(gutterWidth(), 0, 0, 0);
}

int CodeEditor::gutterWidth() const {
  const int digits = QString::number(std::max(1, blockCount())).size();
  return 18 + fontMetrics().horizontalAdvance('9') * std::max(digits, 2);
}

void CodeEditor::resizeEvent(QResizeEvent* event) {
  QPlainTextEdit::resizeEvent(event);
  const QRect r = contentsRect();
  gutter_->setGeometry(QRect(r.left(), r.top(), gutterWidth(), r.height()));
}

void CodeEditor::updateGutter(const QRect& rect, int dy) {
  if (dy) gutter_->scroll(0, dy); else gutter_->update(0, rect.y(), gutter_->width(), rect.height());
}

void CodeEditor::paintGutter(QPaintEvent* event) {
  QPainter painter(gutter_);
  painter.fillRect(event->rect(), palette().window().color().darker(104));
  QSet<int> errorLines, warningLines;
  for (const auto& mark : marks_) {
    (mark.severity == ModelMark::Severity::Error ? errorLines : warningLines).insert(mark.line);
  }
  QTextBlock block = firstVisibleBlock();
  int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
  while (block.isValid() && top <= event->rect().bottom()) {
    const int height = qRound(blockBoundingRect(block).height());
    const int line = block.blockNumber() + 1;
    if (block.isVisible() && top + height >= event->rect().top()) {
      if (errorLines.contains(line) || warningLines.contains(line)) {
        painter.setBrush(errorLines.contains(line) ? QColor("#e53935") : QColor("#fb8c00"));
        painter.setPen(Qt::NoPen);
        painter.drawEllipse(QPointF(7, top + height / 2.0), 4, 4);
      }
      painter.setPen(palette().color(QPalette::PlaceholderText));
      painter.drawText(0, top, gutter_->width() - 4, height, Qt::AlignRight | Qt::AlignVCenter,
                       QString::number(line));
    }
    block = block.next();
    top += height;
  }
}

void CodeEditor::setMarks(const QList<ModelMark>& marks) {
  marks_ = marks;
  applyMarks();
  gutter_->update();
}

QTextCursor CodeEditor::cursorFor(const ModelMark& mark) const {
  const QTextBlock first = document()->findBlockByNumber(mark.line - 1);
  const QTextBlock last = document()->findBlockByNumber(mark.endLine - 1);
  if (!first.isValid()) return {};
  QTextCursor cursor(document());
  cursor.setPosition(first.position() + characterColumn(first.text(), mark.column));
  const QTextBlock end = last.isValid() ? last : first;
  int endPosition = end.position() + characterColumn(end.text(), mark.endColumn);
  if (endPosition <= cursor.position()) endPosition = std::min(cursor.position() + 1, end.position() + end.length() - 1);
  if (endPosition <= cursor.position() && cursor.position() > first.position()) cursor.setPosition(cursor.position() - 1);
  cursor.setPosition(std::max(endPosition, cursor.position()), QTextCursor::KeepAnchor);
  return cursor;
}

void CodeEditor::applyMarks() {
  QList<QTextEdit::ExtraSelection> selections;
  for (const auto& mark : marks_) {
    QTextEdit::ExtraSelection selection;
    selection.cursor = cursorFor(mark);
    if (selection.cursor.isNull()) continue;
    const QColor color = mark.severity == ModelMark::Severity::Error ? QColor("#e53935") : QColor("#fb8c00");
    selection.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    selection.format.setUnderlineColor(color);
    QColor background = color;
    background.setAlpha(30);
    selection.format.setBackground(background);
    selection.format.setToolTip(mark.message);
    selections << selection;
  }
  setExtraSelections(selections);
}

const ModelMark* CodeEditor::markAt(const QPoint& position) const {
  const QTextCursor at = cursorForPosition(position);
  for (const auto& mark : marks_) {
    const QTextCursor range = cursorFor(mark);
    if (!range.isNull() && at.position() >= range.selectionStart() && at.position() <= range.selectionEnd()) {
      return &mark;
    }
  }
  return nullptr;
}

void CodeEditor::goTo(int line, int column) {
  const QTextBlock block = document()->findBlockByNumber(line - 1);
  if (!block.isValid()) return;
  QTextCursor cursor(block);
  cursor.setPosition(block.position() + characterColumn(block.text(), column));
  setTextCursor(cursor);
  setFocus();
}

bool CodeEditor::event(QEvent* event) {
  // Let the window's Undo/Redo actions take these keys: they step the project's history.
  if (event->type() == QEvent::ShortcutOverride && isUndoRedo(static_cast<QKeyEvent*>(event))) {
    event->ignore();
    return false;
  }
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const QPoint position = viewport()->mapFromGlobal(help->globalPos());
    if (const ModelMark* mark = markAt(position)) {
      QToolTip::showText(help->globalPos(), QString("%1:%2: %3").arg(mark->line).arg(mark->column).arg(mark->message), this);
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QPlainTextEdit::event(event);
}

void CodeEditor::keyPressEvent(QKeyEvent* event) {
  if (isUndoRedo(event)) {
    event->ignore();
    return;
  }
  QPlainTextEdit::keyPressEvent(event);
}

void CodeEditor::contextMenuEvent(QContextMenuEvent* event) {
  std::unique_ptr<QMenu> menu(createStandardContextMenu(event->pos()));
  // The text's own undo would bypass the project's history; the Edit menu has the real one.
  for (QAction* action : menu->actions()) {
    if (action->text().contains("Undo") || action->text().contains("Redo")) menu->removeAction(action);
  }
  menu->exec(event->globalPos());
}

}  // namespace variate::ui
