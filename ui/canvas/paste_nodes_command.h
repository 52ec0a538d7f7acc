#pragma once
/// Pastes model statements (what copy put on the clipboard, or any model text): nodes whose
/// names the model has already get fresh ones, with the references among the pasted
/// statements following; the pasted nodes are placed beside the copied ones and selected.

#include <QPointF>

#include "ui/canvas/canvas_command.h"

namespace variate::ui {

class PasteNodesCommand : public CanvasCommand {
 public:
  /// `positions`: where the copied nodes were (by their names in `text`); nodes without
  /// one go around `anchor`. nullptr with *error when refused.
  static PasteNodesCommand* create(CanvasModel* model, const QString& text, const NodePositions& positions,
                                   const QPointF& anchor, QString* error);
  /// The pasted nodes, by their names in the model.
  const QStringList& pasted() const { return pasted_; }

 private:
  using CanvasCommand::CanvasCommand;
  QStringList pasted_;
};

}  // namespace variate::ui
