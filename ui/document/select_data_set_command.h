#pragma once
/// Choosing which of the project's data sets runs and checks use.

#include <QUndoCommand>

namespace variate::ui {

class ProjectDocument;

class SelectDataSetCommand : public QUndoCommand {
 public:
  SelectDataSetCommand(ProjectDocument* document, int before, int after, const QString& name)
      : QUndoCommand(QObject::tr("Use data set %1").arg(name)), document_(document), before_(before), after_(after) {}
  void undo() override;
  void redo() override;

 private:
  ProjectDocument* document_;
  int before_;
  int after_;
};

}  // namespace variate::ui
