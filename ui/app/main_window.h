#pragma once
/// The studio's main window: menus, toolbar and shortcuts, the docks, and one open
/// project at a time. It owns the engine controller (whose thread runs inference) and
/// hands the document to every dock.

#include <memory>

#include <QMainWindow>
#include <QUndoGroup>

#include "ui/app/studio_actions.h"
#include "ui/app/studio_docks.h"

namespace variate::ui {

class EngineController;
class ProjectDocument;
class RecentFiles;
class RunCoordinator;
class RunStatusLabel;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Opens a project (.variate) or a model (.vmod, as a project next to it); false with
  /// lastError() set (and shown, unless errors are quiet) on any problem. The open
  /// project stays open then.
  bool openPath(const QString& path);
  /// Creates a project file with an example model; false with lastError() set.
  bool newProject(const QString& path);
  /// Writes the editor's model as a standalone C++ program into `directory` (File →
  /// Export → C++); false with lastError() set when the model has errors or a file
  /// cannot be written.
  bool exportCpp(const QString& directory);
  QString lastError() const { return lastError_; }
  /// Errors go to lastError() and the log only, not to a message box (for tests).
  void setQuietErrors(bool quiet) { quietErrors_ = quiet; }
  /// This session's arrangement of panels is not saved as the user's layout on close
  /// (the soak test's --float-all-panels).
  void keepSavedLayout() { keepSavedLayout_ = true; }

  ProjectDocument* document() const { return document_.get(); }
  RunCoordinator* coordinator() const { return coordinator_; }
  const StudioActions& actions() const { return actions_; }
  const StudioDocks& docks() const { return docks_; }

 protected:
  void closeEvent(QCloseEvent* event) override;
  void showEvent(QShowEvent* event) override;

 private:
  void setDocument(std::unique_ptr<ProjectDocument> document);
  void connectActions();
  void updateActions();
  void updateTitle();
  void fillExamplesMenu();  // File ▸ Open Example: exampleModels(exampleProjectsDir())
  void showError(const QString& title, const QString& message);
  bool maybeSave();
  void saveLayout();
  void restoreLayout();

  void chooseOpen();
  void chooseNew();
  void save();
  void chooseSaveAs();
  void chooseImportData();
  void exportPlot(const QString& dockName);
  void exportDraws(qint64 runId);
  void chooseExportCpp();
  void run();
  void runMore(qint64 runId);
  void deleteRun(qint64 runId);
  void chooseComparison();

  QUndoGroup undoGroup_;  // before the document: its stack leaves the group when it goes
  std::unique_ptr<ProjectDocument> document_;
  EngineController* engine_;
  RunCoordinator* coordinator_;
  StudioActions actions_;
  StudioDocks docks_;
  RecentFiles* recent_;
  RunStatusLabel* status_;
  QString lastError_;
  bool quietErrors_ = false;
  bool layoutRestored_ = false;  // a saved layout decides which tabs are in front
  bool keepSavedLayout_ = false;  // keepSavedLayout()
  bool layoutSettled_ = false;   // restored from the user's settings (or set once): projects keep it
};

}  // namespace variate::ui
