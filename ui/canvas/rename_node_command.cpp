#include "ui/canvas/rename_node_command.h"

#include <memory>

#include <QRegularExpression>

#include "ui/canvas/canvas_model.h"
#include "ui/canvas/program_edits.h"

namespace variate::ui {

RenameNodeCommand* RenameNodeCommand::create(CanvasModel* model, const QString& from, const QString& to,
                                             QString* error) {
  std::unique_ptr<RenameNodeCommand> command(new RenameNodeCommand(model, QObject::tr("Rename %1 to %2").arg(from, to)));
  if (!command->prepareText([&](model::Program& p) { edits::renameNode(p, from, to); }, error)) return nullptr;
  if (command->after_.contains(from)) command->after_.insert(to, command->after_.take(from));
  command->selectionAfter_.replaceInStrings(QRegularExpression("^" + QRegularExpression::escape(from) + "$"), to);
  return command.release();
}

}  // namespace variate::ui
