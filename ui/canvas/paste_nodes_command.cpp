#include "ui/canvas/paste_nodes_command.h"

#include <memory>

#include "ui/canvas/canvas_model.h"
#include "ui/canvas/program_edits.h"

namespace variate::ui {

PasteNodesCommand* PasteNodesCommand::create(CanvasModel* model, const QString& text, const NodePositions& positions,
                                             const QPointF& anchor, QString* error) {
  std::unique_ptr<PasteNodesCommand> command(new PasteNodesCommand(model, QObject::tr("Paste")));
  QHash<QString, QString> names;
  QString problem;
  if (!command->prepareText([&](model::Program& p) { names = edits::paste(p, text); }, &problem)) {
    *error = QObject::tr("Cannot paste: %1").arg(problem);
    return nullptr;
  }
  // Program order of the pasted names, for a stable placement of those without a position.
  QStringList order = edits::definedNames(ModelSnapshot::fromText(command->textAfter()).program());
  const QPointF offset(40, 40);
  int unplaced = 0;
  for (const QString& name : order) {
    const QString original = names.key(name);
    if (original.isEmpty()) continue;
    command->pasted_ << name;
    const QPointF at = positions.contains(original) ? positions.value(original) + offset
                                                     : anchor + QPointF(150 * (unplaced++), 0);
    command->after_.insert(name, at);
  }
  command->selectionAfter_ = command->pasted_;
  command->setText(QObject::tr("Paste %1").arg(command->pasted_.join(", ")));
  return command.release();
}

}  // namespace variate::ui
