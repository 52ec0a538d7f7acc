#pragma once
/// The one command every property edit of a node shares (as Tiled's ChangeValue): an
/// argument, the distribution, its parameterization, the expression, the sizes or the data
/// type, set from the properties panel.

#include "ui/canvas/canvas_command.h"

namespace variate::ui {

enum class NodeProperty {
  Argument,          // key: the parameter; value: an expression
  Distribution,      // value: a family, or "" to stop observing a data node
  Parameterization,  // value: its index in the family's parameterizations
  Expression,        // value: an expression
  Sizes,             // value: "N, K"
  DataType,          // value: "real" or "int"
};

class EditNodeCommand : public CanvasCommand {
 public:
  /// nullptr with *error when refused.
  static EditNodeCommand* create(CanvasModel* model, const QString& node, NodeProperty property,
                                 const QString& key, const QString& value, QString* error);

 private:
  using CanvasCommand::CanvasCommand;
};

}  // namespace variate::ui
