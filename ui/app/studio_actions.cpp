#include "ui/app/studio_actions.h"

#include <QAction>
#include <QMainWindow>
#include <QMenuBar>
#include <QToolBar>
#include <QUndoGroup>

namespace variate::ui {
namespace {

void decorate(QAction* a, const QString& icon, const QKeySequence& shortcut, const QString& tip) {
  if (!icon.isEmpty()) a->setIcon(QIcon(":/icons/" + icon + ".svg"));
  if (!shortcut.isEmpty()) a->setShortcut(shortcut);
  const QString shortcutText = shortcut.toString(QKeySequence::NativeText);
  a->setToolTip(shortcutText.isEmpty() ? tip : QString("%1 (%2)").arg(tip, shortcutText));
  a->setStatusTip(tip);
}

QAction* action(QMainWindow* window, const QString& text, const QString& icon, const QKeySequence& shortcut,
                const QString& tip) {
  auto* a = new QAction(text, window);
  decorate(a, icon, shortcut, tip);
  return a;
}

}  // namespace

StudioActions StudioActions::create(QMainWindow* w, QUndoGroup* undo) {
  StudioActions a{};
  a.newProject = action(w, QObject::tr("&New Project…"), "new", QKeySequence::New, QObject::tr("Create a project file"));
  a.open = action(w, QObject::tr("&Open…"), "open", QKeySequence::Open, QObject::tr("Open a project (.variate) or a model (.vmod)"));
  a.save = action(w, QObject::tr("&Save"), "save", QKeySequence::Save, QObject::tr("Save the model text as a new version"));
  a.saveAs = action(w, QObject::tr("Save &As…"), "", QKeySequence::SaveAs, QObject::tr("Copy the project, runs included, to a new file"));
  a.importData = action(w, QObject::tr("&Import Data Set…"), "", QKeySequence(), QObject::tr("Add a CmdStan JSON data set"));
  a.exportTraces = action(w, QObject::tr("Trace Plot…"), "export", QKeySequence(), QObject::tr("Export the trace plot as PNG, SVG or PDF"));
  a.exportDensity = action(w, QObject::tr("Density Plot…"), "", QKeySequence(), QObject::tr("Export the density plot"));
  a.exportElbo = action(w, QObject::tr("ELBO Plot…"), "", QKeySequence(), QObject::tr("Export the ELBO plot"));
  a.exportDraws = action(w, QObject::tr("Draws as CSV…"), "", QKeySequence(), QObject::tr("Export the current run's draws as CSV"));
  a.exportCpp = action(w, QObject::tr("Model as &C++ Program…"), "", QKeySequence(),
                       QObject::tr("Write the model as a standalone C++ program (model.h, main.cpp, CMakeLists.txt)"));
  a.quit = action(w, QObject::tr("&Quit"), "", QKeySequence::Quit, QObject::tr("Quit Variate Studio"));
  // The group's actions trigger the active stack and carry its command's name (Tiled's
  // pattern); with no project open there is no active stack and they are disabled.
  a.undo = undo->createUndoAction(w, QObject::tr("&Undo"));
  a.undo->setObjectName("undoAction");
  decorate(a.undo, "", QKeySequence::Undo, QObject::tr("Undo the last edit"));
  a.redo = undo->createRedoAction(w, QObject::tr("&Redo"));
  a.redo->setObjectName("redoAction");
  decorate(a.redo, "", QKeySequence::Redo, QObject::tr("Redo the last undone edit"));
  a.run = action(w, QObject::tr("&Run"), "run", QKeySequence(Qt::Key_F5), QObject::tr("Run inference with the configuration"));
  a.pause = action(w, QObject::tr("&Pause"), "pause", QKeySequence(Qt::Key_F6), QObject::tr("Pause or resume the run"));
  a.pause->setCheckable(true);
  a.stop = action(w, QObject::tr("&Stop"), "stop", QKeySequence(Qt::SHIFT | Qt::Key_F5), QObject::tr("Stop the run, keeping its draws"));
  a.runMore = action(w, QObject::tr("Run &More Draws"), "run-more", QKeySequence(Qt::CTRL | Qt::Key_F5),
                     QObject::tr("Continue the current run with its adapted step size and metric"));
  a.compare = action(w, QObject::tr("&Compare Runs…"), "compare", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
                     QObject::tr("Compare the current run with another"));
  a.resetLayout = action(w, QObject::tr("Reset &Layout"), "", QKeySequence(), QObject::tr("Put every panel back where it started"));
  a.trainingLayout = action(w, QObject::tr("&Training Layout"), "", QKeySequence(),
                            QObject::tr("The panels a deep model's training shows: the ELBO beside the canvas, the "
                                        "reconstructions below"));
  a.help = action(w, QObject::tr("Variate &Help"), "help", QKeySequence::HelpContents, QObject::tr("The model language and the studio"));
  a.about = action(w, QObject::tr("&About Variate Studio"), "", QKeySequence(), QObject::tr("Version and credits"));
  w->addActions({a.undo, a.redo});  // their shortcuts work wherever the focus is

  QMenuBar* bar = w->menuBar();
  QMenu* file = bar->addMenu(QObject::tr("&File"));
  file->addActions({a.newProject, a.open});
  a.recent = file->addMenu(QObject::tr("Open &Recent"));
  a.examples = file->addMenu(QObject::tr("Open E&xample"));
  file->addSeparator();
  file->addActions({a.save, a.saveAs});
  file->addSeparator();
  file->addAction(a.importData);
  QMenu* exportMenu = file->addMenu(QIcon(":/icons/export.svg"), QObject::tr("&Export"));
  exportMenu->addActions({a.exportTraces, a.exportDensity, a.exportElbo, a.exportDraws});
  exportMenu->addSeparator();
  exportMenu->addAction(a.exportCpp);
  file->addSeparator();
  file->addAction(a.quit);
  QMenu* edit = bar->addMenu(QObject::tr("&Edit"));
  edit->addActions({a.undo, a.redo});
  QMenu* run = bar->addMenu(QObject::tr("&Run"));
  run->addActions({a.run, a.pause, a.stop, a.runMore});
  run->addSeparator();
  run->addAction(a.compare);
  a.view = bar->addMenu(QObject::tr("&View"));
  QMenu* help = bar->addMenu(QObject::tr("&Help"));
  help->addActions({a.help, a.about});

  a.toolBar = w->addToolBar(QObject::tr("Main"));
  a.toolBar->setObjectName("mainToolBar");
  a.toolBar->addActions({a.newProject, a.open, a.save});
  a.toolBar->addSeparator();
  a.toolBar->addActions({a.run, a.pause, a.stop, a.runMore});
  a.toolBar->addSeparator();
  a.toolBar->addActions({a.compare, a.help});
  a.toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  return a;
}

}  // namespace variate::ui
