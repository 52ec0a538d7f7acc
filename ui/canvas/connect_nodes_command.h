#pragma once
/// Connects two nodes: `from` becomes the argument of one of `to`'s parameters. Refused,
/// with the model unchanged, when it would make a cycle, when the types do not match (a
/// scalar for a matrix parameter, a value for a Mixture's component), or when the model
/// would not check.

#include "ui/canvas/canvas_command.h"

namespace variate::ui {

class ConnectNodesCommand : public CanvasCommand {
 public:
  /// nullptr with *error when refused.
  static ConnectNodesCommand* create(CanvasModel* model, const QString& from, const QString& to,
                                     const QString& parameter, QString* error);

 private:
  using CanvasCommand::CanvasCommand;
};

}  // namespace variate::ui
