#include "app/studio/studio_automation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <QApplication>
#include <QDateTime>
#include <QDockWidget>
#include <QScreen>
#include <QTimer>

#include "engine/core/argument_error.h"
#include "engine/services/run_config.h"
#include "engine/services/setting_table.h"
#include "engine/services/settings.h"
#include "ui/app/main_window.h"
#include "ui/app/run_coordinator.h"
#include "ui/docks/known_workers.h"
#include "ui/docks/sbc_panel.h"
#include "ui/docks/workers_panel.h"
#include "ui/document/model_check.h"
#include "ui/document/project_document.h"

namespace variate::studio {

StudioAutomation::StudioAutomation(ui::MainWindow* window, AutomationOptions options)
    : QObject(window), window_(window), options_(std::move(options)) {}

void StudioAutomation::start() {
  if (options_.floatAllPanels) floatAllPanels();
  for (const QString& name : options_.raise) {
    if (QDockWidget* dock = window_->docks().dock(name)) dock->raise();
  }
  ui::ProjectDocument* document = window_->document();
  if (!document) {  // no project: the bare window is all there is
    finishWithoutRun();
    return;
  }
  ui::RunConfig config = document->runConfig();
  if (!applySettings(document, config)) return;
  if (!options_.runOn.isEmpty() && !chooseWorker(config)) return;
  document->applyRunConfig(config);  // command-line settings are not an edit to undo

  connect(document->runs(), &ui::RunList::drawsAppended, this, &StudioAutomation::onDraws);
  connect(document->runs(), &ui::RunList::elboAppended, this, &StudioAutomation::onSteps);
  connect(window_->coordinator(), &ui::RunCoordinator::runEnded, this, &StudioAutomation::onEnded);
  connect(window_->coordinator(), &ui::RunCoordinator::runFailed, this, [this](const QString& message) {
    std::fprintf(stderr, "error: %s\n", qPrintable(message));
    if (options_.quitWhenDone) QApplication::exit(1);
  });
  if (options_.runOnOpen) {
    startedMs_ = QDateTime::currentMSecsSinceEpoch();
    window_->actions().run->trigger();
  } else if (!window_->coordinator()->isRunning()) {  // a worker's job reattached on opening ends in onEnded
    finishWithoutRun();
  }
}

void StudioAutomation::finishWithoutRun() {
  quitPending_ = options_.quitWhenDone;
  if (!shot_ && !options_.screenshot.isEmpty()) {  // the project as it opened, its current run's draws shown
    shot_ = true;
    ui::ProjectDocument* document = window_->document();
    const ui::RunPtr run = document ? document->runs()->current() : nullptr;
    screenshotWhenSummarized(run ? run->id : -1);  // takeScreenshot quits after
  } else if (quitPending_) {
    quitSoon();
  }
}

QList<QCommandLineOption> addSettingOptions(QCommandLineParser& parser, const QList<QCommandLineOption>& studioOptions) {
  QList<QCommandLineOption> settings;
  const auto taken = [&](const QString& name) {
    const auto has = [&](const QCommandLineOption& o) { return o.names().contains(name); };
    // Several methods' settings of one name: the session's method decides which it is.
    return std::any_of(studioOptions.begin(), studioOptions.end(), has) || std::any_of(settings.begin(), settings.end(), has);
  };
  for (const services::SettingDescriptor* setting : services::all_settings()) {
    if (!setting->has(services::kInRunPanel)) continue;
    const bool flag = setting->kind == services::SettingKind::flag || setting->kind == services::SettingKind::tristate;
    QStringList names{QString::fromStdString(setting->flag()).mid(2)};
    if (flag) names << QString::fromStdString(setting->negative_flag()).mid(2);
    for (const QString& name : names) {
      if (taken(name)) continue;
      settings << QCommandLineOption(name, QString::fromStdString(setting->full_help()), flag ? QString() : "value");
      parser.addOption(settings.back());
    }
  }
  return settings;
}

QList<QPair<QString, QString>> givenSettings(const QCommandLineParser& parser, const QList<QCommandLineOption>& options) {
  QList<QPair<QString, QString>> given;
  for (const QCommandLineOption& setting : options) {
    if (parser.isSet(setting)) given << qMakePair("--" + setting.names().front(), parser.value(setting));
  }
  return given;
}

bool StudioAutomation::applySettings(const ui::ProjectDocument* document, ui::RunConfig& config) {
  try {
    if (!options_.method.isEmpty()) config.method = store::run_method_from_string(options_.method.toLower().toStdString());
    // A deep model is trained whatever method the session names: its settings are the training's.
    const services::Method method = ui::isDeepModel(document->modelText()) ? services::Method::amortized : config.method;
    for (const auto& [flag, value] : options_.settings) {
      const services::SettingDescriptor* setting = services::find_setting(method, flag.toStdString());
      if (!setting && method == services::Method::sbc) {  // a setting of each replication's fit
        setting = services::find_setting(services::fit_method(config.settings), flag.toStdString());
        if (setting && !services::sbc_fit_takes(*setting)) setting = nullptr;
      }
      if (!setting) throw ArgumentError(flag.toStdString() + " is no setting of " + services::method_label(method));
      if (setting->kind == services::SettingKind::flag && value.isEmpty()) {
        config.settings.put(*setting, flag.toStdString() == setting->flag());
      } else if (setting->kind == services::SettingKind::tristate && value.isEmpty()) {
        config.settings.put(*setting, std::string(flag.toStdString() == setting->flag() ? "on" : "off"));
      } else {
        config.settings.put_text(*setting, value.toStdString());
      }
    }
    return true;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    if (options_.quitWhenDone) QTimer::singleShot(0, qApp, [] { QApplication::exit(1); });
    return false;
  }
}

bool StudioAutomation::chooseWorker(ui::RunConfig& config) {
  QString error;
  if (!options_.workerTokenFile.isEmpty() &&
      !window_->docks().workers->addWorker({options_.runOn, options_.workerTokenFile, {}}, &error)) {
    std::fprintf(stderr, "error: %s\n", qPrintable(error));
    if (options_.quitWhenDone) QTimer::singleShot(0, qApp, [] { QApplication::exit(1); });
    return false;
  }
  for (const ui::WorkerRef& worker : ui::knownWorkers()) {
    if (worker.address == options_.runOn) {
      config.setWorker(worker);
      return true;
    }
  }
  std::fprintf(stderr, "error: no worker %s in the Workers panel (add it, or give --worker-token-file)\n",
               qPrintable(options_.runOn));
  if (options_.quitWhenDone) QTimer::singleShot(0, qApp, [] { QApplication::exit(1); });
  return false;
}

void StudioAutomation::onDraws() {
  const ui::RunPtr run = window_->document()->runs()->current();
  if (!run) return;
  int least = run->chains.empty() ? 0 : run->chains.front().iterations();
  for (size_t c = 0; c < run->chains.size(); ++c) {
    least = std::min(least, run->chains[c].iterations());
    if (options_.progress) std::printf("progress %zu %d\n", c, run->chains[c].iterations());
  }
  if (options_.progress) std::fflush(stdout);
  if (!shot_ && !options_.screenshot.isEmpty() && options_.screenshotAfter >= 0 && least >= options_.screenshotAfter &&
      static_cast<int>(run->chains.size()) >= run->config.settings.get(services::setting::chains)) {
    shot_ = true;
    QTimer::singleShot(400, this, &StudioAutomation::takeScreenshot);  // lets the plots and table catch up
  }
}

void StudioAutomation::onSteps() {
  const ui::RunPtr run = window_->document()->runs()->current();
  if (!run || run->config.method != services::Method::amortized || run->elbo.points.empty()) return;
  const int steps = run->elbo.points.back().iteration;
  if (options_.progress) {
    std::printf("progress 0 %d\n", steps);
    std::fflush(stdout);
  }
  if (!shot_ && !options_.screenshot.isEmpty() && options_.screenshotAfter >= 0 && steps >= options_.screenshotAfter) {
    shot_ = true;
    QTimer::singleShot(400, this, &StudioAutomation::takeScreenshot);
  }
}

void StudioAutomation::onEnded(qint64 runId) {
  const ui::RunPtr run = window_->document()->runs()->run(runId);
  if (options_.progress && run) {
    const double seconds = (QDateTime::currentMSecsSinceEpoch() - startedMs_) / 1000.0;
    std::printf("ended %s %lld seconds %.3f\n", qPrintable(ui::statusName(run->status)),
                static_cast<long long>(runId), seconds);
    std::fflush(stdout);
  }
  if (!shot_ && !options_.screenshot.isEmpty()) {
    shot_ = true;
    screenshotWhenSummarized(runId);
  }
  quitPending_ = options_.quitWhenDone;
  // A screenshot still to come (also one --screenshot-after asked for at the run's last
  // iteration, due a moment after it) quits once written.
  if (quitPending_ && (options_.screenshot.isEmpty() || screenshotWritten_)) quitSoon();
}

void StudioAutomation::takeScreenshot() {
  if (!window_->grab().save(options_.screenshot)) {
    std::fprintf(stderr, "error: could not write %s\n", qPrintable(options_.screenshot));
  } else {
    std::printf("screenshot %s\n", qPrintable(options_.screenshot));
    std::fflush(stdout);
  }
  screenshotWritten_ = true;
  if (quitPending_) quitSoon();
}

void StudioAutomation::screenshotWhenSummarized(qint64 runId, int waitedMs) {
  constexpr int kPollMs = 100, kMostMs = 60000;
  const ui::RunPtr run = window_->document() ? window_->document()->runs()->run(runId) : nullptr;
  // A stored run's draws load on demand: until then it has no chains to summarize.
  bool shown = !run || ((run->drawsLoaded || run->isActive()) && run->summaryIsCurrent());
  if (run && run->config.method == services::Method::sbc) {  // its panel tested every replication ranked
    const auto ranked = std::count_if(run->sbc.ended.begin(), run->sbc.ended.end(),
                                      [](const store::SbcReplicationRecord& r) { return !r.ranks.empty(); });
    shown = run->drawsLoaded && window_->docks().sbc->view().ranked == ranked;
  }
  if (shown || waitedMs >= kMostMs) {
    QTimer::singleShot(400, this, &StudioAutomation::takeScreenshot);  // the plots' and table's redraws
    return;
  }
  QTimer::singleShot(kPollMs, this, [this, runId, waitedMs] { screenshotWhenSummarized(runId, waitedMs + kPollMs); });
}

void StudioAutomation::quitSoon() { QTimer::singleShot(200, qApp, &QApplication::quit); }

void StudioAutomation::floatAllPanels() {
  window_->keepSavedLayout();  // the user's next session opens as before this one
  const QList<QDockWidget*>& docks = window_->docks().docks;
  const QRect screen = window_->screen()->availableGeometry();
  const int columns = static_cast<int>(std::ceil(std::sqrt(docks.size())));
  const int rows = (static_cast<int>(docks.size()) + columns - 1) / std::max(1, columns);
  const QSize cell(screen.width() / std::max(1, columns), screen.height() / std::max(1, rows));
  for (int i = 0; i < docks.size(); ++i) {
    QDockWidget* dock = docks[i];
    dock->setFloating(true);
    dock->setGeometry(QRect(screen.topLeft() + QPoint(i % columns * cell.width(), i / columns * cell.height()), cell));
    dock->show();
  }
}

}  // namespace variate::studio
