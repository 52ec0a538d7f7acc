#include "ui/canvas/move_nodes_command.h"

namespace variate::ui {

MoveNodesCommand::MoveNodesCommand(CanvasModel* model, const NodePositions& before, const NodePositions& after)
    : CanvasCommand(model, after.size() == 1 ? QObject::tr("Move %1").arg(after.begin().key())
                                             : QObject::tr("Move %1 nodes").arg(after.size())) {
  for (auto it = before.begin(); it != before.end(); ++it) before_.insert(it.key(), it.value());
  for (auto it = after.begin(); it != after.end(); ++it) after_.insert(it.key(), it.value());
}

}  // namespace variate::ui
