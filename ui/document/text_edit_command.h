#pragma once
/// An edit of the model text: the text document keeps its own undo steps, and this
/// command steps them from the project's undo stack, so text edits interleave with
/// every other undoable change in one history (Qt's QTextDocument::undoCommandAdded
/// pattern).

#include <QTextDocument>
#include <QUndoCommand>

namespace variate::ui {

class TextEditCommand : public QUndoCommand {
 public:
  explicit TextEditCommand(QTextDocument* text) : QUndoCommand(QObject::tr("Edit model")), text_(text) {}
  void undo() override { text_->undo(); }
  /// The edit is already in the text when the command is pushed.
  void redo() override {
    if (first_) {
      first_ = false;
      return;
    }
    text_->redo();
  }

 private:
  QTextDocument* text_;
  bool first_ = true;
};

}  // namespace variate::ui
