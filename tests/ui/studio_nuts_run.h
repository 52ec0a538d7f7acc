#pragma once
// A short NUTS run of the open project started from the studio's toolbar, as a user
// starts one, for the suites of the panels that show finished runs.

#include <QSignalSpy>
#include <QToolBar>
#include <QtTest/QtTest>

#include "engine/services/setting_table.h"
#include "tests/ui/studio_test_support.h"
#include "ui/app/main_window.h"
#include "ui/app/run_coordinator.h"
#include "ui/app/studio_actions.h"
#include "ui/document/project_document.h"

namespace studio_test {

namespace services = variate::services;

/// Shows `window` at the screenshots' size, with a copy of projects/NAME made in `dir`
/// open; false (with the window's message) when it does not open.
inline bool openExample(variate::ui::MainWindow& window, const QTemporaryDir& dir, const QString& name = "eight_schools") {
  const QString folder = copyProject(name, dir);
  window.setQuietErrors(true);
  window.resize(1500, 950);
  window.show();
  if (!QTest::qWaitForWindowExposed(&window)) return false;
  return window.openPath(folder + "/" + name + ".vmod");
}

/// Runs NUTS with the given warmup, draws and seed; true once it finished.
inline bool runNuts(variate::ui::MainWindow& window, int warmup, int draws, quint64 seed) {
  using namespace variate::ui;
  ProjectDocument* document = window.document();
  RunConfig config = document->runConfig();
  config.method = services::Method::nuts;
  config.settings.set(services::setting::warmup, warmup);
  config.settings.set(services::setting::draws, draws);
  config.settings.set(services::setting::seed, std::optional<uint64_t>(seed));
  document->setRunConfig(config);
  QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
  QTest::mouseClick(window.actions().toolBar->widgetForAction(window.actions().run), Qt::LeftButton);
  if (!ended.wait(120000)) return false;
  const RunPtr run = document->runs()->current();
  return run && run->status == RunStatus::Finished;
}

}  // namespace studio_test
