#pragma once
/// The base of the canvas's undo commands. A command that changes the model holds the new
/// text, made by editing a copy of the syntax tree and checked by the engine before the
/// command exists; it applies it through the document on its first redo, inside the macro
/// CanvasModel::push opens, so the document's own text step joins the same undo entry and
/// steps the text back and forth from then on. The command itself restores node positions
/// and the selection.

#include <functional>

#include <QObject>
#include <QUndoCommand>

#include "ui/canvas/canvas_layout.h"

namespace variate::model { struct Program; }

namespace variate::ui {

class CanvasModel;

class CanvasCommand : public QUndoCommand {
 public:
  void redo() override;
  void undo() override;

  /// Whether the command changes the model text (else only positions).
  bool changesText() const { return !textAfter_.isNull(); }
  const QString& textAfter() const { return textAfter_; }
  /// The refusal of an edit that would leave the text as it is.
  static QString nothingToChange() { return QObject::tr("Nothing to change"); }

 protected:
  CanvasCommand(CanvasModel* model, const QString& label);

  /// Edits a copy of the model's syntax tree, prints it and checks the text: false with
  /// *error when the model text has errors, the edit is refused, the result does not check,
  /// or nothing changes.
  bool prepareText(const std::function<void(model::Program&)>& edit, QString* error);

  CanvasModel* model_;
  NodePositions before_, after_;
  QStringList selectionBefore_, selectionAfter_;

 private:
  QString textAfter_;
  bool applied_ = false;
};

}  // namespace variate::ui
