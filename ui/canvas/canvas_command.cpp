#include "ui/canvas/canvas_command.h"

#include <QRegularExpression>

#include "ui/canvas/canvas_model.h"
#include "ui/canvas/program_edits.h"

namespace variate::ui {

CanvasCommand::CanvasCommand(CanvasModel* model, const QString& label)
    : QUndoCommand(label),
      model_(model),
      before_(model->layout()->positions()),
      after_(before_),
      selectionBefore_(model->selection()),
      selectionAfter_(selectionBefore_) {}

void CanvasCommand::redo() {
  // Positions first, so the graph rebuilt from the new text finds its new nodes placed.
  model_->layout()->setPositions(after_);
  if (changesText() && !applied_) {
    applied_ = true;
    model_->applyText(textAfter_);
  }
  model_->setSelection(selectionAfter_);
}

void CanvasCommand::undo() {
  model_->layout()->setPositions(before_);
  model_->setSelection(selectionBefore_);
}

bool CanvasCommand::prepareText(const std::function<void(model::Program&)>& edit, QString* error) {
  const ModelSnapshot& snapshot = model_->snapshot();
  if (!snapshot.ok()) {
    *error = QObject::tr("The model text has an error; fix it in the text first (%1)").arg(snapshot.error());
    return false;
  }
  model::Program program = snapshot.program();
  try {
    edit(program);
  } catch (const EditError& e) {
    *error = e.message();
    return false;
  }
  const QString text = edits::printed(program);
  if (text == edits::printed(snapshot.program())) {
    *error = nothingToChange();
    return false;
  }
  const QString problem = firstModelError(text);
  if (!problem.isEmpty()) {
    // The location is in text the user has not seen yet: the message alone says it.
    *error = QString(problem).remove(QRegularExpression("^line \\d+, column \\d+: "));
    return false;
  }
  textAfter_ = text;
  return true;
}

}  // namespace variate::ui
