#pragma once
/// The studio's actions with their icons, shortcuts and tips, and the menus and toolbar
/// built from them. The main window connects them to what they do.

#include <QObject>

class QAction;
class QMainWindow;
class QMenu;
class QToolBar;
class QUndoGroup;

namespace variate::ui {

struct StudioActions {
  QAction* newProject;
  QAction* open;
  QAction* save;
  QAction* saveAs;
  QAction* importData;
  QAction* exportTraces;
  QAction* exportDensity;
  QAction* exportElbo;
  QAction* exportDraws;
  QAction* exportCpp;
  QAction* quit;
  QAction* undo;
  QAction* redo;
  QAction* run;
  QAction* pause;
  QAction* stop;
  QAction* runMore;
  QAction* compare;
  QAction* resetLayout;
  QAction* trainingLayout;
  QAction* help;
  QAction* about;
  QMenu* recent;
  QMenu* examples;  // filled by MainWindow: one entry per example project
  QMenu* view;
  QToolBar* toolBar;

  /// Creates the actions (owned by `window`), its menu bar and its main toolbar. Undo and
  /// redo follow the active stack of `undo` and name its next command ("Undo Rename mu
  /// to m").
  static StudioActions create(QMainWindow* window, QUndoGroup* undo);
};

}  // namespace variate::ui
