#pragma once
/// Renames a node: its statements and every reference to it follow (on the syntax tree,
/// engine/model/rename.h), and it keeps its place on the canvas.

#include "ui/canvas/canvas_command.h"

namespace variate::ui {

class RenameNodeCommand : public CanvasCommand {
 public:
  /// nullptr with *error when refused (an invalid or taken name).
  static RenameNodeCommand* create(CanvasModel* model, const QString& from, const QString& to, QString* error);

 private:
  using CanvasCommand::CanvasCommand;
};

}  // namespace variate::ui
