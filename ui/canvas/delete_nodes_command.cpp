#include "ui/canvas/delete_nodes_command.h"

#include <memory>

#include "ui/canvas/canvas_model.h"
#include "ui/canvas/program_edits.h"

namespace variate::ui {

DeleteNodesCommand* DeleteNodesCommand::create(CanvasModel* model, const QStringList& nodes, QString* error) {
  if (nodes.isEmpty()) {
    *error = QObject::tr("Select the nodes to delete");
    return nullptr;
  }
  std::unique_ptr<DeleteNodesCommand> command(new DeleteNodesCommand(
      model, nodes.size() == 1 ? QObject::tr("Delete %1").arg(nodes.front())
                               : QObject::tr("Delete %1 nodes").arg(nodes.size())));
  QString problem;
  if (!command->prepareText([&](model::Program& p) { edits::removeNodes(p, nodes); }, &problem)) {
    *error = QObject::tr("Refused: %1").arg(problem);
    return nullptr;
  }
  command->selectionAfter_.clear();
  return command.release();
}

}  // namespace variate::ui
