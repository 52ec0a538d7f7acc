#pragma once
/// Moves nodes on the canvas (a drag): positions only, the model text stays.

#include "ui/canvas/canvas_command.h"

namespace variate::ui {

class MoveNodesCommand : public CanvasCommand {
 public:
  /// `before` and `after`: the moved nodes' positions.
  MoveNodesCommand(CanvasModel* model, const NodePositions& before, const NodePositions& after);
};

}  // namespace variate::ui
