#pragma once
// What `variate-studio` does on its own when asked on the command line: override the run
// configuration, start a run as soon as the project opens, report progress on stdout
// (for the crash-recovery test and benchmarks), grab screenshots, and quit when done.

#include <QObject>
#include <QStringList>

namespace variate::ui {
class MainWindow;
struct RunConfig;
}

namespace variate::studio {

struct AutomationOptions {
  bool runOnOpen = false;
  bool progress = false;       // "progress CHAIN ITERATIONS" per batch, "ended STATUS ID" at the end
  bool quitWhenDone = false;
  QString method;              // "nuts" or "advi"; empty: as configured
  int chains = -1, warmup = -1, draws = -1, iterations = -1, threads = -1, processes = -1;  // -1: as configured
  int epochs = -1, batchSize = -1;  // a deep model's training; -1: as configured
  qint64 seed = -1;
  QString screenshot;          // PNG of the window
  int screenshotAfter = -1;    // ... once every chain made this many iterations (a training: steps); -1: at the end
  QStringList raise;           // docks to bring to the front (object names, e.g. elboDock)
  QString runOn;               // a worker's HOST:PORT the run goes to; empty: as configured
  QString workerTokenFile;     // adds runOn to the Workers panel with this token file
  bool floatAllPanels = false; // every panel floats in a window of its own, all visible at once
};

class StudioAutomation : public QObject {
  Q_OBJECT

 public:
  StudioAutomation(ui::MainWindow* window, AutomationOptions options);
  /// Applies the options to the open project and starts what they ask for.
  void start();

 private:
  /// Sets config.worker to options_.runOn (added first with its token file, if given);
  /// false with a message on stderr when there is no such worker.
  bool chooseWorker(ui::RunConfig& config);
  void onDraws();
  /// A training's steps: its progress and the screenshot.
  void onSteps();
  void onEnded(qint64 runId);
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
