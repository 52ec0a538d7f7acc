#include "ui/canvas/disconnect_nodes_command.h"

#include <memory>

#include "ui/canvas/canvas_model.h"
#include "ui/canvas/program_edits.h"

namespace variate::ui {

DisconnectNodesCommand* DisconnectNodesCommand::create(CanvasModel* model, const QString& from, const QString& to,
                                                       QString* error) {
  std::unique_ptr<DisconnectNodesCommand> command(
      new DisconnectNodesCommand(model, QObject::tr("Disconnect %1 from %2").arg(from, to)));
  QString problem;
  if (!command->prepareText([&](model::Program& p) { edits::disconnect(p, from, to); }, &problem)) {
    *error = QObject::tr("Refused: %1").arg(problem);
    return nullptr;
  }
  return command.release();
}

}  // namespace variate::ui
