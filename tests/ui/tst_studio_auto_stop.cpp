// Auto-stop in the studio: "Until ESS" set in the run panel makes a NUTS run of eight
// schools extend in rounds until the rule holds. The stored draws meet the rule (checked
// here on the project file), the log tells each round, the setting survives reopening,
// and with several processes the run is refused with a message saying what to change.

#include <QJsonDocument>
#include <QJsonObject>
#include <QPlainTextEdit>
#include <QtTest/QtTest>

#include "engine/store/project.h"

#include "engine/services/setting_table.h"
#include "tests/support/stored_rule.h"
#include "tests/ui/studio_test_support.h"
#include "ui/app/main_window.h"
#include "ui/app/run_coordinator.h"
#include "ui/docks/log_panel.h"
#include "ui/docks/run_config_panel.h"
#include "ui/document/project_document.h"

namespace services = variate::services;

using namespace variate::ui;
namespace store = variate::store;

namespace {

// Presses Run and waits for the run's end.
RunPtr runAndWait(MainWindow& window) {
  QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
  window.actions().run->trigger();
  if (!ended.wait(120000)) return nullptr;
  return window.document()->runs()->current();
}

}  // namespace

class TestStudioAutoStop : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { studio_test::isolateSettings(); }

  void runsUntilTheRuleHolds() {
    QTemporaryDir dir;
    const QString folder = studio_test::copyProject("eight_schools", dir);
    QString path;
    qint64 runId = -1;
    {
      MainWindow window;
      window.setQuietErrors(true);
      window.show();
      QVERIFY2(window.openPath(folder + "/eight_schools.vmod"), qPrintable(window.lastError()));
      path = window.document()->filePath();
      QWidget* settings = window.docks().runConfig;
      QVERIFY(studio_test::typeInto(settings, "warmup", "300"));
      QVERIFY(studio_test::typeInto(settings, "draws", "100"));
      QVERIFY(studio_test::typeInto(settings, "until_ess", "200"));  // per chain: 800 over the 4 chains
      QCOMPARE(window.document()->runConfig().settings.get(services::setting::until_ess), std::optional<int>(200));

      const RunPtr run = runAndWait(window);
      QVERIFY(run);
      QVERIFY2(run->status == RunStatus::Finished, qPrintable(run->message));
      runId = run->id;
      const QString log = window.docks().log->toPlainText();
      QVERIFY2(log.contains(QRegularExpression("Auto-stop: 100 draws per chain, .*; \\d+ more")), qPrintable(log));
      QVERIFY2(log.contains(": the rule holds"), qPrintable(log));
      QVERIFY(run->samplingDrawsPerChain() > 100);
      QCOMPARE(run->plannedIterations(), 300 + run->samplingDrawsPerChain());
    }
    const store::Project project(path.toStdString());
    const auto chains = project.draws(runId);
    QCOMPARE(chains.size(), size_t{4});
    std::string failing;
    QVERIFY2(test_support::stored_rule_holds(chains, chains[0].sampling_rows(), 200, &failing),
             ("the stored run fails the rule at " + failing).c_str());
    QVERIFY(!test_support::stored_rule_holds(chains, 100, 200));  // the first round alone did not
    const auto config = QJsonDocument::fromJson(QByteArray::fromStdString(project.run(runId).config_json)).object();
    QCOMPARE(config["until_ess"].toInt(), 200);

    MainWindow reopened;
    reopened.setQuietErrors(true);
    QVERIFY(reopened.openPath(path));
    reopened.document()->runs()->setCurrent(runId);
    QCOMPARE(reopened.document()->runs()->current()->config.settings.get(services::setting::until_ess), std::optional<int>(200));
  }

  void refusesSeveralProcesses() {
    QTemporaryDir dir;
    const QString folder = studio_test::copyProject("eight_schools", dir);
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    QVERIFY(window.openPath(folder + "/eight_schools.vmod"));
    QWidget* settings = window.docks().runConfig;
    QVERIFY(studio_test::typeInto(settings, "until_ess", "100"));
    QVERIFY(studio_test::typeInto(settings, "nproc", "2"));
    window.actions().run->trigger();
    // Refused before it starts: no run is recorded, and the message says what to change.
    const QString message = "--until-ess extends chains on this process; it does not combine with several processes";
    QVERIFY2(studio_test::waitFor([&] { return window.lastError().contains(message); }, 60000),
             qPrintable(window.lastError()));
    QVERIFY(window.document()->runs()->current() == nullptr);
  }
};

QTEST_MAIN(TestStudioAutoStop)
#include "tst_studio_auto_stop.moc"
