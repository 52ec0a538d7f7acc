#pragma once
/// Removes an edge drawn to a parameter slot: the arguments of `to` that are just `from`
/// go back to their defaults. An edge from inside an expression is removed by editing the
/// expression instead.

#include "ui/canvas/canvas_command.h"

namespace variate::ui {

class DisconnectNodesCommand : public CanvasCommand {
 public:
  /// nullptr with *error when refused.
  static DisconnectNodesCommand* create(CanvasModel* model, const QString& from, const QString& to, QString* error);

 private:
  using CanvasCommand::CanvasCommand;
};

}  // namespace variate::ui
