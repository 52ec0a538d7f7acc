#pragma once
/// A change of the run configuration: the generic property command of the run panel.
/// Consecutive changes of the same field merge (typing 4000 in a spin box is one step).

#include <QUndoCommand>

#include "ui/document/run_config.h"

namespace variate::ui {

class ProjectDocument;

class SetRunConfigCommand : public QUndoCommand {
 public:
  SetRunConfigCommand(ProjectDocument* document, RunConfig before, RunConfig after);
  void undo() override;
  void redo() override;
  int id() const override { return 1001; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  ProjectDocument* document_;
  RunConfig before_;
  RunConfig after_;
};

}  // namespace variate::ui
