// variate-studio [PROJECT.variate | MODEL.vmod]: the desktop workbench.

#include <algorithm>
#include <cstdio>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include "app/studio/studio_automation.h"
#include "app/studio/studio_monitor.h"
#include "ui/app/main_window.h"
#include "engine/core/version.h"
#include "engine/services/settings.h"

int main(int argc, char** argv) {
#ifdef __GLIBC__
  // Blocks of a megabyte or more (a column of a long run's draws, a panel's sorted copy)
  // are mapped and go back to the system when freed. glibc would otherwise raise this
  // threshold to 32 MB after the first such block is freed and keep later ones in its
  // arenas, one per thread: the studio's resident memory would hold every peak of every
  // panel's computation (bench/soak.sh).
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
  QApplication app(argc, argv);
  Q_INIT_RESOURCE(studio);
  QApplication::setOrganizationName("Variate");
  QApplication::setApplicationName("Variate Studio");
  QApplication::setApplicationVersion(variate::version());
  QApplication::setWindowIcon(QIcon(":/icons/variate.svg"));
  // The desktop entry the installed studio is launched from (its Wayland app id).
  QGuiApplication::setDesktopFileName("org.variate.Studio");

  QCommandLineParser parser;
  parser.setApplicationDescription("Variate Studio: a desktop workbench for Bayesian modeling.");
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument("file",
                               "A project (.variate) or a model (.vmod; a data.json beside it is its data, or "
                               "train.json and test.json for a model with networks).",
                               "[PROJECT.variate | MODEL.vmod]");
  const QCommandLineOption runOnOpen("run-on-open", "Start a run as soon as the project is open.");
  const QCommandLineOption method(
      "method",
      "Inference method for this session: nuts, advi, optimize, pathfinder or sbc (whose replications NUTS fits).",
      "method");
  const QCommandLineOption progress("progress", "Print the run's progress on standard output.");
  const QCommandLineOption quit("quit-when-done", "Quit when the run ends.");
  const QCommandLineOption screenshot("screenshot", "Save a PNG of the window while or after the run.", "file");
  const QCommandLineOption screenshotAfter("screenshot-after",
                                           "Take it once every chain made N iterations (a training: N steps).", "n");
  const QCommandLineOption raise("raise", "Bring a panel to the front (e.g. elboDock); repeatable.", "dock");
  const QCommandLineOption runOn("run-on", "Run on the worker at HOST:PORT (one the Workers panel lists).", "address");
  const QCommandLineOption workerToken("worker-token-file", "Add the --run-on worker with this token file.", "file");
  const QCommandLineOption floatPanels("float-all-panels", "Float every panel in a window of its own, all shown at once.");
  const QCommandLineOption monitor("monitor",
                                   "Write once a second: seconds, resident MiB, the longest UI-thread stall (ms) and the "
                                   "run's iterations per chain.",
                                   "file");
  const QList<QCommandLineOption> studioOptions = {runOnOpen, method, progress,    quit,        screenshot, screenshotAfter,
                                                   raise,     runOn,  workerToken, floatPanels, monitor};
  parser.addOptions(studioOptions);
  const QList<QCommandLineOption> settings = variate::studio::addSettingOptions(parser, studioOptions);
  parser.process(app);

  variate::ui::MainWindow window;
  window.show();
  if (parser.isSet(monitor) && !variate::studio::StudioMonitor::open(&window, parser.value(monitor))) {
    std::fprintf(stderr, "error: cannot write %s\n", qPrintable(parser.value(monitor)));
    return 1;
  }
  const QStringList files = parser.positionalArguments();
  if (!files.isEmpty() && !window.openPath(files.first())) {
    std::fprintf(stderr, "error: %s\n", qPrintable(window.lastError()));
    if (parser.isSet(quit)) return 1;
  }
  variate::studio::AutomationOptions options;
  options.runOnOpen = parser.isSet(runOnOpen);
  options.progress = parser.isSet(progress);
  options.quitWhenDone = parser.isSet(quit);
  options.method = parser.value(method);
  options.settings = variate::studio::givenSettings(parser, settings);
  options.screenshot = parser.value(screenshot);
  options.screenshotAfter = parser.isSet(screenshotAfter) ? parser.value(screenshotAfter).toInt() : -1;
  options.raise = parser.values(raise);
  options.runOn = parser.value(runOn);
  options.workerTokenFile = parser.value(workerToken);
  options.floatAllPanels = parser.isSet(floatPanels);
  auto* automation = new variate::studio::StudioAutomation(&window, options);
  QTimer::singleShot(0, automation, &variate::studio::StudioAutomation::start);
  return app.exec();
}
