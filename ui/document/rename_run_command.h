#pragma once
/// Renaming a run (stored in the project file at once).

#include <QUndoCommand>

namespace variate::ui {

class ProjectDocument;

class RenameRunCommand : public QUndoCommand {
 public:
  RenameRunCommand(ProjectDocument* document, qint64 run, QString before, QString after)
      : QUndoCommand(QObject::tr("Rename run to %1").arg(after)), document_(document), run_(run),
        before_(std::move(before)), after_(std::move(after)) {}
  void undo() override;
  void redo() override;

 private:
  ProjectDocument* document_;
  qint64 run_;
  QString before_;
  QString after_;
};

}  // namespace variate::ui
