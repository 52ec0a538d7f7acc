// Variational runs and continued runs in the studio: ADVI draws its ELBO live with the
// convergence point marked and keeps the trace in the project; the Run panel's ADVI
// options are what the fit uses, and the ELBO panel draws the run's tolerance; "run more
// draws" grows a finished NUTS run from its chains' last positions with their adapted
// step sizes (no new warmup); two runs compare side by side.

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest/QtTest>
#include <qcustomplot.h>

#include "engine/store/project.h"

#include "engine/services/setting_table.h"
#include "tests/ui/studio_test_support.h"
#include "ui/analysis/summary_service.h"
#include "ui/app/main_window.h"
#include "ui/app/run_coordinator.h"
#include "ui/docks/density_panel.h"
#include "ui/docks/diagnostics_panel.h"
#include "ui/docks/elbo_panel.h"
#include "ui/docks/run_config_panel.h"
#include "ui/document/project_document.h"

namespace services = variate::services;

using namespace variate::ui;

namespace {

RunPtr runAndWait(MainWindow& window, const std::function<void(RunConfig&)>& configure) {
  RunConfig config = window.document()->runConfig();
  configure(config);
  window.document()->setRunConfig(config);
  QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
  window.actions().run->trigger();
  if (!ended.wait(120000)) return nullptr;
  return window.document()->runs()->current();
}

}  // namespace

class TestStudioAdvi : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void adviDrawsItsElboAndKeepsIt() {
    QTemporaryDir dir;
    QString path;
    int points = 0, convergedAt = -1;
    {
      MainWindow window;
      window.setQuietErrors(true);
      window.show();
      QVERIFY(window.openPath(studio_test::copyProject("eight_schools", dir) + "/eight_schools.vmod"));
      path = window.document()->filePath();
      QSignalSpy elbo(window.document()->runs(), &RunList::elboAppended);
      const RunPtr run = runAndWait(window, [](RunConfig& c) {
        c.method = services::Method::advi;
        c.settings.set(services::setting::seed, std::optional<uint64_t>(11));
        c.settings.set(services::setting::output_draws, 500);
      });
      QVERIFY(run);
      QVERIFY2(run->status == RunStatus::Finished, qPrintable(run->message));
      QVERIFY(elbo.count() > 0);
      QVERIFY(!run->elbo.empty());
      ElboPanel* panel = window.docks().elbo;
      QVERIFY(studio_test::waitFor([&] { return panel->plottedPoints() > 0; }, 5000));
      convergedAt = run->elbo.convergedAt;
      QVERIFY2(convergedAt > 0, "eight schools converges well within 10,000 iterations");
      QVERIFY(studio_test::waitFor([&] { return panel->markedConvergence() == convergedAt; }, 5000));
      QCOMPARE(run->chains.size(), size_t(1));
      QCOMPARE(run->chains[0].iterations(), 500);
      points = int(run->elbo.points.size());
      QString error;
      QVERIFY2(panel->exportTo(dir.path() + "/elbo.png", &error), qPrintable(error));
    }
    MainWindow window;
    window.setQuietErrors(true);
    QVERIFY(window.openPath(path));
    const RunPtr run = window.document()->runs()->current();
    QCOMPARE(run->config.method, services::Method::advi);
    QVERIFY(studio_test::waitFor([&] { return !run->elbo.empty(); }, 20000));
    QCOMPARE(run->elbo.convergedAt, convergedAt);
    QVERIFY(std::abs(int(run->elbo.points.size()) - points) <= points / 50);  // evaluations replace raw points
  }

  // The Run panel's ADVI options reach the fit: its tolerance, step size and evaluation
  // interval are what the run records and uses, and the ELBO panel draws the run's own
  // tolerance.
  void runPanelOptionsReachTheFit() {
    QTemporaryDir dir;
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    QVERIFY(window.openPath(studio_test::copyProject("eight_schools", dir) + "/eight_schools.vmod"));
    QWidget* settings = window.docks().runConfig;
    QVERIFY(studio_test::choose(settings, "method", "ADVI"));
    QCOMPARE(window.document()->runConfig().method, services::Method::advi);
    QVERIFY(studio_test::typeInto(settings, "tol_rel_obj", "0.001"));
    QVERIFY(studio_test::typeInto(settings, "eta", "0.1"));
    QVERIFY(studio_test::typeInto(settings, "eval_elbo", "50"));
    QVERIFY(studio_test::typeInto(settings, "iter", "3000"));
    QVERIFY(studio_test::typeInto(settings, "output_draws", "200"));
    QCOMPARE(window.document()->runConfig().settings.get(services::setting::advi_tol_rel_obj), 0.001);
    QCOMPARE(window.document()->runConfig().settings.get(services::setting::eta).value_or(-1), 0.1);

    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    window.actions().run->trigger();
    QVERIFY(ended.wait(120000));
    const RunPtr run = window.document()->runs()->current();
    QVERIFY2(run->status == RunStatus::Finished, qPrintable(run->message));
    QCOMPARE(run->chains.front().iterations(), 200);

    variate::store::Project project(window.document()->filePath().toStdString());
    const QJsonObject stored =
        QJsonDocument::fromJson(QByteArray::fromStdString(project.run(run->id).config_json)).object();
    QCOMPARE(stored["tol_rel_obj"].toDouble(), 0.001);
    QCOMPARE(stored["eta"].toDouble(), 0.1);
    QCOMPARE(stored["eval_elbo"].toInt(), 50);
    const QJsonObject advi =
        QJsonDocument::fromJson(QByteArray::fromStdString(*project.diagnostics_json(run->id))).object()["variational"].toObject();
    QCOMPARE(advi["eta"].toDouble(), 0.1);  // given, not adapted
    int evaluations = 0;
    for (const auto& point : run->elbo.points) {
      if (!std::isfinite(point.relativeChange)) continue;
      QCOMPARE(point.iteration % 50, 0);
      ++evaluations;
    }
    QVERIFY(evaluations > 2);

    ElboPanel* panel = window.docks().elbo;
    QVERIFY(studio_test::waitFor([&] { return panel->plottedPoints() > 0; }, 5000));
    auto* tolerance = panel->plot()->findChild<QCPItemStraightLine*>("toleranceLine");
    QVERIFY(tolerance);
    QCOMPARE(tolerance->point1->coords().y(), 0.001);
    QCOMPARE(tolerance->point2->coords().y(), 0.001);
    QCOMPARE(tolerance->point1->valueAxis(), panel->plot()->yAxis2);  // the relative-change axis
  }

  void runMoreContinuesWithTheAdaptedStepSize() {
    QTemporaryDir dir;
    MainWindow window;
    window.setQuietErrors(true);
    QVERIFY(window.openPath(studio_test::copyProject("eight_schools", dir) + "/eight_schools.vmod"));
    const RunPtr first = runAndWait(window, [](RunConfig& c) {
      c.settings.set(services::setting::warmup, 300);
      c.settings.set(services::setting::draws, 200);
      c.settings.set(services::setting::seed, std::optional<uint64_t>(5));
    });
    QVERIFY(first && first->status == RunStatus::Finished);
    QCOMPARE(int(first->chainStates.size()), 4);
    std::vector<double> adapted;
    for (const auto& state : first->chainStates) adapted.push_back(*state.stepSize);
    QVERIFY(window.actions().runMore->isEnabled());
    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    window.actions().runMore->trigger();  // 200 more draws per chain (the configured number)
    QVERIFY(ended.wait(120000));
    const RunPtr more = window.document()->runs()->current();
    QCOMPARE(more->id, first->id);  // the run grows; no new warmup
    QCOMPARE(more->status, RunStatus::Finished);
    QCOMPARE(int(more->chains.size()), 4);
    for (int c = 0; c < 4; ++c) {
      QCOMPARE(more->chains[c].warmupIterations(), 300);
      QCOMPARE(more->chains[c].iterations(), 700);
      QCOMPARE(more->chains[c].stats(500).stepSize, adapted[c]);
      QCOMPARE(more->chains[c].stats(699).stepSize, adapted[c]);
    }
    variate::store::Project project(window.document()->filePath().toStdString());
    QCOMPARE(int(project.runs().size()), 1);
    for (const auto& chain : project.draws(first->id)) QCOMPARE(int(chain.rows), 700);

    // A second run to compare with: the table shows both, the density overlays it.
    const RunPtr second = runAndWait(window, [](RunConfig& c) { c.settings.set(services::setting::seed, std::optional<uint64_t>(6)); });
    QVERIFY(second && second->id != first->id);
    // Compare the two: the table shows both, the density overlays the other run.
    window.document()->runs()->setComparison(first->id);
    QVERIFY(studio_test::waitFor([&] {
      return !window.coordinator()->summaries()->busy() && !second->summary.rows.empty() && !first->summary.rows.empty();
    }, 60000));
    DiagnosticsModel* table = window.docks().diagnostics->model();
    QVERIFY(studio_test::waitFor([&] { return table->comparing() && table->rowCount() > 0; }, 5000));
    QVERIFY(!std::isnan(table->value(0, DiagnosticsModel::Mean, true)));
    QVERIFY(!window.docks().density->pooledDensity("mu", true).empty());
  }
};

QTEST_MAIN(TestStudioAdvi)
#include "tst_studio_advi.moc"
