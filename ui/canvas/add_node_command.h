#pragma once
/// Adds a node from the palette at a place on the canvas: a data input, an expression, or
/// a random variable with its family's default arguments (a discrete family's variable is
/// added as observed integer data, since discrete parameters cannot be inferred).

#include <QPointF>

#include "ui/canvas/canvas_command.h"
#include "ui/canvas/node_template.h"

namespace variate::ui {

class AddNodeCommand : public CanvasCommand {
 public:
  /// nullptr with *error when refused.
  static AddNodeCommand* create(CanvasModel* model, const NodeTemplate& what, const QPointF& position,
                                QString* error);
  const QString& name() const { return name_; }

 private:
  using CanvasCommand::CanvasCommand;
  QString name_;
};

}  // namespace variate::ui
