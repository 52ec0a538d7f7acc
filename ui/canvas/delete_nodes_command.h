#pragma once
/// Deletes nodes with all their statements. Refused while a node that stays reads one of
/// them (its expression or argument would name nothing).

#include "ui/canvas/canvas_command.h"

namespace variate::ui {

class DeleteNodesCommand : public CanvasCommand {
 public:
  /// nullptr with *error when refused.
  static DeleteNodesCommand* create(CanvasModel* model, const QStringList& nodes, QString* error);

 private:
  using CanvasCommand::CanvasCommand;
};

}  // namespace variate::ui
