#pragma once
// What `variate-studio` does on its own when asked on the command line: override the run
// configuration, start a run as soon as the project opens, report progress on stdout
// (for the crash-recovery test and benchmarks), grab screenshots, and quit when done.

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>
#include <QObject>
#include <QPair>
#include <QStringList>

namespace variate::ui {
class MainWindow;
class ProjectDocument;
struct RunConfig;
}

namespace variate::studio {

struct AutomationOptions {
  bool runOnOpen = false;
  bool progress = false;       // "progress CHAIN ITERATIONS" per batch, "ended STATUS ID" at the end
  bool quitWhenDone = false;
  QString method;              // "nuts", "advi", "optimize" or "pathfinder"; empty: as configured
  /// Settings as `variate`'s flags give them ("--draws", "500"; a flag's value empty), for
  /// the session's method (a deep model's: its training's).
  QList<QPair<QString, QString>> settings;
  QString screenshot;          // PNG of the window
  int screenshotAfter = -1;    // ... once every chain made this many iterations (a training: steps); -1: at the end
  QStringList raise;           // docks to bring to the front (object names, e.g. elboDock)
  QString runOn;               // a worker's HOST:PORT the run goes to; empty: as configured
  QString workerTokenFile;     // adds runOn to the Workers panel with this token file
  bool floatAllPanels = false; // every panel floats in a window of its own, all visible at once
};

/// Every setting of the Run panel as `variate`'s flag (engine/services/setting_table.cpp),
/// added to `parser` for the session's method (--draws 500, --max-depth 5, --no-newton),
/// but for names of the studio's own options (its --method; ADVI's family is the Run
/// panel's).
QList<QCommandLineOption> addSettingOptions(QCommandLineParser& parser, const QList<QCommandLineOption>& studioOptions);
/// The settings `parser` found, as AutomationOptions::settings holds them.
QList<QPair<QString, QString>> givenSettings(const QCommandLineParser& parser, const QList<QCommandLineOption>& options);

class StudioAutomation : public QObject {
  Q_OBJECT

 public:
  StudioAutomation(ui::MainWindow* window, AutomationOptions options);
  /// Applies the options to the open project and starts what they ask for.
  void start();

 private:
  /// The session's method and settings into `config`; false with a message on stderr for a
  /// setting the method does not take or a value it does not.
  bool applySettings(const ui::ProjectDocument* document, ui::RunConfig& config);
  /// Sets config's worker to options_.runOn (added first with its token file, if given);
  /// false with a message on stderr when there is no such worker.
  bool chooseWorker(ui::RunConfig& config);
  void onDraws();
  /// A training's steps: its progress and the screenshot.
  void onSteps();
  void onEnded(qint64 runId);
  /// Nothing runs: the screenshot of the project as it opened, then quit (--quit-when-done).
  void finishWithoutRun();
  void takeScreenshot();
  /// Takes the screenshot once the ended run's last summary is in (and drawn); at most a
  /// minute after the end.
  void screenshotWhenSummarized(qint64 runId, int waitedMs = 0);
  void quitSoon();
  /// Floats every dock, tiled over the screen, so that every panel is shown and redrawn.
  void floatAllPanels();

  ui::MainWindow* window_;
  AutomationOptions options_;
  bool shot_ = false;               // the screenshot is taken or due
  bool screenshotWritten_ = false;  // ... and was taken (written, or failed with a message)
  bool quitPending_ = false;        // the run ended with --quit-when-done
  qint64 startedMs_ = 0;
};

}  // namespace variate::studio
