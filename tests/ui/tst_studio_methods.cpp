// The approximations in the studio and how far to trust them: every ADVI run records the
// PSIS k-hat of its draws' importance ratios p/q, the ELBO panel shows it and warns above
// 0.7 (a mean-field fit of a strongly correlated Gaussian is flagged, a full-rank one is
// not), and a reopened project shows the stored value (or, for a run that stored none,
// the value of its stored draws); "Optimize (L-BFGS)" records the mode with its Laplace
// draws, or the mode alone; "Pathfinder" records its resampled draws with their k-hat and
// stops between paths, keeping the draws of the paths it finished. Each run is recorded
// with its own method, and the panels make no R-hat or ESS claims about these draws.

#include <algorithm>
#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTableView>
#include <QtTest/QtTest>

#include <qcustomplot.h>

#include "engine/services/fit.h"
#include "engine/services/setting_table.h"
#include "engine/store/project.h"

#include "tests/ui/studio_test_support.h"
#include "ui/analysis/summary_service.h"
#include "ui/app/main_window.h"
#include "ui/app/run_coordinator.h"
#include "ui/docks/diagnostics_panel.h"
#include "ui/docks/elbo_panel.h"
#include "ui/docks/log_panel.h"
#include "ui/docks/run_config_panel.h"
#include "ui/docks/sampler_stats_panel.h"
#include "ui/document/project_document.h"

namespace services = variate::services;

using namespace variate::ui;
namespace store = variate::store;

namespace {

const QString kReference = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/reference/");

// A 10-dimensional Gaussian whose coordinates correlate at 0.95: a mean-field Gaussian
// misses most of its mass, a full-rank one is exact (the CLI's k-hat test, tst_variate_fit).
QString writeCorrelatedGaussian(const QTemporaryDir& dir) {
  QFile model(dir.filePath("correlated.vmod"));
  if (!model.open(QIODevice::WriteOnly)) return {};
  model.write("data mu: real[10]\ndata Sigma: real[10, 10]\nx ~ MultiNormal(mu, Sigma)\n");
  QJsonArray sigma, mu;
  for (int i = 0; i < 10; ++i) {
    QJsonArray row;
    for (int j = 0; j < 10; ++j) row.append(i == j ? 1.0 : 0.95);
    sigma.append(row);
    mu.append(0);
  }
  QFile data(dir.filePath("data.json"));
  if (!data.open(QIODevice::WriteOnly)) return {};
  data.write(QJsonDocument(QJsonObject{{"mu", mu}, {"Sigma", sigma}}).toJson());
  return model.fileName();
}

// kidiq's regression (posteriordb kidiq-kidscore_momhsiq) copied into `dir`.
QString copyKidiq(const QTemporaryDir& dir) {
  const QString source = kReference + "kidiq-kidscore_momhsiq/";
  QFile::copy(source + "model.vmod", dir.filePath("kidiq.vmod"));
  QFile::copy(source + "data.json", dir.filePath("data.json"));
  return dir.filePath("kidiq.vmod");
}

// Presses Run and waits for the run's end; the run, or null when it did not end.
RunPtr runAndWait(MainWindow& window) {
  QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
  window.actions().run->trigger();
  if (!ended.wait(120000)) return nullptr;
  return window.document()->runs()->current();
}

QJsonObject storedDiagnostics(const QString& projectPath, qint64 run) {
  const store::Project project(projectPath.toStdString());
  const auto json = project.diagnostics_json(run);
  return json ? QJsonDocument::fromJson(QByteArray::fromStdString(*json)).object() : QJsonObject();
}

store::RunMethod storedMethod(const QString& projectPath, qint64 run) {
  return store::Project(projectPath.toStdString()).run(run).method;
}

QString logText(const MainWindow& window) { return window.docks().log->toPlainText(); }

// The diagnostics table shows no R-hat nor ESS for independent draws.
bool hidesRhatAndEss(const MainWindow& window) {
  DiagnosticsPanel* panel = window.docks().diagnostics;
  for (const auto statistic : {DiagnosticsModel::EssBulk, DiagnosticsModel::EssTail, DiagnosticsModel::Rhat}) {
    if (!panel->view()->isColumnHidden(panel->model()->columnOf(statistic))) return false;
  }
  return !panel->view()->isColumnHidden(panel->model()->columnOf(DiagnosticsModel::Mean));
}

}  // namespace

class TestStudioMethods : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void adviShowsItsKHatAndAReopenedProjectShowsTheStoredOne() {
    QTemporaryDir dir;
    const QString model = writeCorrelatedGaussian(dir);
    QVERIFY(!model.isEmpty());
    QString path;
    qint64 meanfieldId = -1, fullrankId = -1;
    double meanfieldK = 0, fullrankK = 0;
    {
      MainWindow window;
      window.setQuietErrors(true);
      window.show();
      QVERIFY(window.openPath(model));
      path = window.document()->filePath();
      QWidget* settings = window.docks().runConfig;
      QVERIFY(studio_test::choose(settings, "method", "ADVI"));
      QVERIFY(studio_test::typeInto(settings, "iter", "2000"));
      QVERIFY(studio_test::typeInto(settings, "output_draws", "1000"));
      // A fixed seed: meanfield's k-hat on this posterior is above 0.7 for most seeds, not all.
      QVERIFY(studio_test::typeInto(settings, "seed", "1"));
      ElboPanel* elbo = window.docks().elbo;

      const RunPtr meanfield = runAndWait(window);
      QVERIFY(meanfield);
      QVERIFY2(meanfield->status == RunStatus::Finished, qPrintable(meanfield->message));
      meanfieldId = meanfield->id;
      QVERIFY(meanfield->approximation.paretoK);
      meanfieldK = *meanfield->approximation.paretoK;
      QVERIFY2(meanfieldK > 0.7, qPrintable(QString::number(meanfieldK)));
      QVERIFY(studio_test::waitFor([&] { return elbo->paretoKWarning()->isVisible(); }, 5000));
      QVERIFY(elbo->paretoKLabel()->isVisible());
      QVERIFY2(elbo->paretoKLabel()->text().contains(QString("Pareto k-hat %1").arg(meanfieldK, 0, 'f', 2)),
               qPrintable(elbo->paretoKLabel()->text()));
      QVERIFY(elbo->paretoKWarning()->text().contains("misses much of the posterior's mass"));
      QVERIFY(elbo->paretoKWarning()->text().contains("full-rank"));
      QVERIFY(elbo->paretoKWarning()->text().contains("NUTS"));
      // Started as `variate fit` starts: from Pathfinder's (or the Laplace) estimate.
      const QString start = meanfield->approximation.start;
      QVERIFY2(start == "pathfinder" || start == "laplace", qPrintable(start));
      QVERIFY2(logText(window).contains(QString::fromStdString(services::start_note(start.toStdString()))),
               qPrintable(logText(window)));
      QVERIFY(logText(window).contains(QString("Pareto k-hat %1").arg(meanfieldK, 0, 'f', 2)));
      // Recorded with the run.
      const QJsonObject advi = storedDiagnostics(path, meanfieldId)["variational"].toObject();
      QCOMPARE(advi["pareto_k"].toDouble(), meanfieldK);
      QCOMPARE(advi["pareto_k_ok"].toBool(), false);
      QCOMPARE(advi["start"].toString(), start);
      QCOMPARE(storedMethod(path, meanfieldId), store::RunMethod::advi);
      // Independent draws: no sampler statistics, no R-hat or ESS.
      QVERIFY(window.docks().sampler->findChild<QLabel*>("samplerNote")->text().contains("no sampler statistics"));
      QVERIFY(studio_test::waitFor([&] { return !meanfield->summary.rows.empty(); }, 20000));
      QVERIFY(meanfield->summary.independentDraws);
      QVERIFY(std::isnan(meanfield->summary.rows[0].r_hat));
      QVERIFY(std::isnan(meanfield->summary.rows[0].ess_bulk));
      QVERIFY(studio_test::waitFor([&] { return hidesRhatAndEss(window); }, 5000));

      QVERIFY(studio_test::choose(settings, "family", "fullrank"));
      const RunPtr fullrank = runAndWait(window);
      QVERIFY(fullrank && fullrank->id != meanfieldId);
      QVERIFY2(fullrank->status == RunStatus::Finished, qPrintable(fullrank->message));
      fullrankId = fullrank->id;
      fullrankK = fullrank->approximation.paretoK.value_or(99);
      QVERIFY2(fullrankK < 0.7, qPrintable(QString::number(fullrankK)));
      QVERIFY(studio_test::waitFor([&] { return elbo->paretoKLabel()->text().contains(QString::number(fullrankK, 'f', 2)); },
                                   5000));
      QVERIFY(elbo->paretoKLabel()->isVisible());
      QVERIFY(!elbo->paretoKWarning()->isVisible());
      QCOMPARE(storedDiagnostics(path, fullrankId)["variational"].toObject()["pareto_k_ok"].toBool(), true);
    }

    // Reopened: the newest run shows its stored k-hat, and so does the older one once chosen.
    {
      MainWindow window;
      window.setQuietErrors(true);
      window.show();
      QVERIFY(window.openPath(path));
      RunList* runs = window.document()->runs();
      ElboPanel* elbo = window.docks().elbo;
      QCOMPARE(runs->currentId(), fullrankId);
      QVERIFY(studio_test::waitFor([&] { return runs->current()->approximation.paretoK.has_value(); }, 20000));
      QCOMPARE(*runs->current()->approximation.paretoK, fullrankK);
      QVERIFY(!runs->current()->approximation.fromStoredDraws);
      QVERIFY(studio_test::waitFor([&] { return elbo->paretoKLabel()->isVisible(); }, 5000));
      QVERIFY(!elbo->paretoKWarning()->isVisible());
      runs->setCurrent(meanfieldId);
      QVERIFY(studio_test::waitFor([&] { return runs->current()->approximation.paretoK.has_value(); }, 20000));
      QCOMPARE(*runs->current()->approximation.paretoK, meanfieldK);
      QVERIFY(studio_test::waitFor([&] { return elbo->paretoKWarning()->isVisible(); }, 5000));
      QVERIFY(elbo->paretoKLabel()->text().contains(QString::number(meanfieldK, 'f', 2)));
    }

    // A run that stored no k-hat (recorded before the studio stored it) gets the k-hat of
    // its stored draws: the same value.
    {
      store::Project project(path.toStdString());
      QJsonObject diagnostics = storedDiagnostics(path, meanfieldId);
      QJsonObject advi = diagnostics["variational"].toObject();
      advi.remove("pareto_k");
      diagnostics["variational"] = advi;
      project.set_diagnostics(meanfieldId, QJsonDocument(diagnostics).toJson(QJsonDocument::Compact).toStdString());
    }
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    QVERIFY(window.openPath(path));
    RunList* runs = window.document()->runs();
    runs->setCurrent(meanfieldId);
    QVERIFY(studio_test::waitFor([&] { return runs->current()->approximation.paretoK.has_value(); }, 20000));
    QVERIFY(runs->current()->approximation.fromStoredDraws);
    QVERIFY(std::abs(*runs->current()->approximation.paretoK - meanfieldK) < 1e-9);
    QVERIFY(studio_test::waitFor(
        [&] { return window.docks().elbo->paretoKLabel()->text().contains("computed from the stored draws"); }, 5000));
  }

  void optimizeRecordsTheModeWithItsLaplaceDraws() {
    QTemporaryDir dir;
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    QVERIFY(window.openPath(copyKidiq(dir)));
    const QString path = window.document()->filePath();
    QWidget* settings = window.docks().runConfig;
    QVERIFY(studio_test::choose(settings, "method", "Optimize (L-BFGS)"));
    QCOMPARE(window.document()->runConfig().method, services::Method::optimize);
    auto* jacobian = settings->findChild<QComboBox*>("jacobian");
    // auto: with Laplace draws the Jacobian is in (they approximate the posterior), as in `variate optimize`.
    QVERIFY(jacobian && jacobian->isVisible() && jacobian->currentText() == "auto");
    QVERIFY(!settings->findChild<QWidget*>("chains")->isVisible());
    QVERIFY(studio_test::typeInto(settings, "laplace_draws", "400"));
    QCOMPARE(window.document()->runConfig().settings.get(services::setting::laplace_draws), 400);

    const RunPtr run = runAndWait(window);
    QVERIFY(run);
    QVERIFY2(run->status == RunStatus::Finished, qPrintable(run->message));
    QCOMPARE(run->config.method, services::Method::optimize);
    QCOMPARE(run->chains.size(), size_t(1));
    QCOMPARE(run->chains[0].iterations(), 400);
    QCOMPARE(storedMethod(path, run->id), store::RunMethod::optimize);
    {
      const store::Project project(path.toStdString());
      QCOMPARE(int(project.draws(run->id).front().rows), 400);
      QCOMPARE(project.run(run->id).columns[1], std::string("log_p__"));
    }
    // The mode: in the log, the Diagnostics panel's last column, and stored with the run.
    const QJsonObject optimize = storedDiagnostics(path, run->id)["optimize"].toObject();
    QCOMPARE(optimize["status"].toString(), QString("converged"));
    QCOMPARE(optimize["jacobian"].toBool(), true);
    const QJsonObject laplace = storedDiagnostics(path, run->id)["laplace"].toObject();
    QCOMPARE(laplace["draws"].toInt(), 400);
    QVERIFY(optimize["mode"].toObject().contains("beta[1]"));
    const double slope = optimize["mode"].toObject()["beta[2]"].toDouble();  // mom_hs, about 6 (Gelman & Hill)
    QVERIFY2(slope > 3 && slope < 9, qPrintable(QString::number(slope)));
    QVERIFY(logText(window).contains("Mode: beta[1] = "));
    DiagnosticsModel* table = window.docks().diagnostics->model();
    QVERIFY(studio_test::waitFor([&] { return table->showsMode() && table->rowCount() >= 4; }, 20000));
    QCOMPARE(table->headerData(table->columnCount() - 1, Qt::Horizontal, Qt::DisplayRole).toString(), QString("Mode"));
    QCOMPARE(table->parameter(1), QString("beta[2]"));
    QCOMPARE(table->modeValue(1), slope);
    QVERIFY(studio_test::waitFor([&] { return !std::isnan(table->value(1, DiagnosticsModel::Mean)); }, 20000));
    QVERIFY(std::abs(table->value(1, DiagnosticsModel::Mean) - slope) < 1.5);  // the draws centre on the mode
    QVERIFY(std::isnan(table->value(1, DiagnosticsModel::Rhat)));
    QVERIFY(hidesRhatAndEss(window));
    // With the Jacobian the Laplace draws approximate the posterior: k-hat applies, and a
    // regression's near-Gaussian posterior passes.
    QVERIFY(run->approximation.paretoK);
    QVERIFY2(*run->approximation.paretoK < 0.7, qPrintable(QString::number(*run->approximation.paretoK)));
    QCOMPARE(laplace["pareto_k"].toDouble(), *run->approximation.paretoK);
    ElboPanel* elbo = window.docks().elbo;
    QVERIFY(studio_test::waitFor([&] { return elbo->paretoKLabel()->isVisible(); }, 5000));
    QVERIFY(!elbo->paretoKWarning()->isVisible());
    QVERIFY(window.docks().sampler->findChild<QLabel*>("samplerNote")->text().contains("no sampler statistics"));
    // The ELBO panel shows what L-BFGS has: its log density by iteration (the start
    // included), stored with the run, and the mode's.
    const QJsonArray trace = optimize["trace"].toArray();
    QCOMPARE(trace.size(), optimize["iterations"].toInt() + 1);
    QVERIFY(trace.last().toDouble() > trace.first().toDouble());
    QVERIFY(studio_test::waitFor([&] { return elbo->plottedPoints() == trace.size(); }, 5000));
    QVERIFY(elbo->plot()->isVisibleTo(elbo));
    QCOMPARE(elbo->plot()->xAxis->label(), QString("L-BFGS iteration"));
    QCOMPARE(elbo->plot()->yAxis->label(), QString("log density"));
    QVERIFY(!elbo->plot()->yAxis2->visible());  // ADVI's relative change has no place here
    QVERIFY(elbo->caption()->text().contains("mode's log density"));

    // Without the Jacobian and without draws: the posterior mode alone, as the run's one draw.
    QVERIFY(studio_test::choose(settings, "jacobian", "off"));
    QVERIFY(studio_test::typeInto(settings, "laplace_draws", "0"));
    QCOMPARE(window.document()->runConfig().settings.get(services::setting::laplace_draws), 0);
    QCOMPARE(window.document()->runConfig().settings.get(services::setting::jacobian), std::string("off"));
    const RunPtr mode = runAndWait(window);
    QVERIFY(mode && mode->id != run->id);
    QVERIFY2(mode->status == RunStatus::Finished, qPrintable(mode->message));
    QCOMPARE(mode->chains[0].iterations(), 1);
    QVERIFY(!mode->approximation.paretoK);
    QCOMPARE(storedMethod(path, mode->id), store::RunMethod::optimize);
    const QJsonObject modeOnly = storedDiagnostics(path, mode->id)["optimize"].toObject();
    QCOMPARE(modeOnly["jacobian"].toBool(), false);
    QVERIFY(!storedDiagnostics(path, mode->id).contains("laplace"));
    QVERIFY(studio_test::waitFor([&] { return table->showsMode() && !std::isnan(table->value(1, DiagnosticsModel::Mean)); },
                                 20000));
    QCOMPARE(table->value(1, DiagnosticsModel::Mean), table->modeValue(1));  // the one draw is the mode
    QVERIFY(!elbo->paretoKLabel()->isVisible());
  }

  void pathfinderRecordsItsResampledDrawsWithTheirKHat() {
    QTemporaryDir dir;
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    QVERIFY(window.openPath(copyKidiq(dir)));
    const QString path = window.document()->filePath();
    QWidget* settings = window.docks().runConfig;
    QVERIFY(studio_test::choose(settings, "method", "Pathfinder"));
    QCOMPARE(window.document()->runConfig().settings.get(services::setting::num_paths), 4);  // CmdStan's default
    QVERIFY(studio_test::typeInto(settings, "num_paths", "2"));
    QVERIFY(studio_test::typeInto(settings, "psis_draws", "300"));
    QVERIFY(!settings->findChild<QWidget*>("nproc")->isVisibleTo(settings));

    const RunPtr run = runAndWait(window);
    QVERIFY(run);
    QVERIFY2(run->status == RunStatus::Finished, qPrintable(run->message));
    QCOMPARE(run->chains[0].iterations(), 300);
    QCOMPARE(storedMethod(path, run->id), store::RunMethod::pathfinder);
    const QJsonObject pathfinder = storedDiagnostics(path, run->id)["pathfinder"].toObject();
    QCOMPARE(pathfinder["paths"].toArray().size(), 2);
    QCOMPARE(pathfinder["draws"].toInt(), 300);
    QVERIFY(pathfinder["psis_resample"].toBool());
    QVERIFY(run->approximation.paretoK);
    QCOMPARE(pathfinder["pareto_k"].toDouble(), *run->approximation.paretoK);
    QVERIFY(logText(window).contains("Pathfinder path 2 of 2"));
    ElboPanel* elbo = window.docks().elbo;
    QVERIFY(studio_test::waitFor([&] { return elbo->paretoKLabel()->isVisible(); }, 5000));
    QCOMPARE(elbo->paretoKWarning()->isVisible(), *run->approximation.paretoK > 0.7);
    // The ELBO panel shows each path's ELBO along its L-BFGS iterations (stored with the
    // run), each path's best marked.
    const QJsonArray firstPath = pathfinder["paths"].toArray()[0].toObject()["elbo"].toArray();
    QCOMPARE(firstPath.size(), pathfinder["paths"].toArray()[0].toObject()["iterations"].toInt());
    QVERIFY(studio_test::waitFor([&] { return elbo->plot()->graphCount() == 3; }, 5000));
    QCOMPARE(elbo->plottedPoints(), firstPath.size());
    QCOMPARE(elbo->plot()->graph(0)->name(), QString("path 1"));
    QCOMPARE(elbo->plot()->graph(2)->name(), QString("each path's best"));
    QCOMPARE(elbo->plot()->graph(2)->dataCount(), 2);
    QCOMPARE(elbo->plot()->xAxis->label(), QString("L-BFGS iteration"));
    QVERIFY(elbo->plot()->yAxis->label().startsWith("ELBO estimate"));
    DiagnosticsModel* table = window.docks().diagnostics->model();
    QVERIFY(studio_test::waitFor([&] { return table->rowCount() >= 4 && !std::isnan(table->value(1, DiagnosticsModel::Mean)); },
                                 20000));
    const double slope = table->value(1, DiagnosticsModel::Mean);
    QVERIFY2(slope > 3 && slope < 9, qPrintable(QString::number(slope)));
    QVERIFY(!table->showsMode());
    QVERIFY(hidesRhatAndEss(window));

    // Reopened: the stored k-hat is shown again.
    const double k = *run->approximation.paretoK;
    MainWindow reopened;
    reopened.setQuietErrors(true);
    QVERIFY(reopened.openPath(path));
    const RunPtr stored = reopened.document()->runs()->current();
    QCOMPARE(stored->config.method, services::Method::pathfinder);
    QVERIFY(studio_test::waitFor([&] { return stored->approximation.paretoK.has_value(); }, 20000));
    QCOMPARE(*stored->approximation.paretoK, k);
    QCOMPARE(stored->chains.front().iterations(), 300);
    QCOMPARE(int(std::count_if(stored->elbo.pathPoints.begin(), stored->elbo.pathPoints.end(),
                               [](const PathPoint& p) { return p.path == 0; })),
             firstPath.size());
  }

  // Stop ends the path under way and skips the rest: the run is stopped and keeps the
  // draws of the paths it had.
  void stoppingPathfinderKeepsTheDrawsOfItsPaths() {
    QTemporaryDir dir;
    MainWindow window;
    window.setQuietErrors(true);
    QVERIFY(window.openPath(copyKidiq(dir)));
    const QString path = window.document()->filePath();
    QWidget* settings = window.docks().runConfig;
    QVERIFY(studio_test::choose(settings, "method", "Pathfinder"));
    QVERIFY(studio_test::typeInto(settings, "num_paths", "256"));
    QVERIFY(studio_test::typeInto(settings, "psis_draws", "100"));
    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    window.actions().run->trigger();
    QVERIFY(studio_test::waitFor([&] { return logText(window).contains("Pathfinder path 3 of 256"); }, 60000));
    window.actions().stop->trigger();
    QVERIFY(ended.count() > 0 || ended.wait(60000));
    const RunPtr run = window.document()->runs()->current();
    QCOMPARE(run->status, RunStatus::Stopped);
    QVERIFY(!run->chains.empty());
    QVERIFY(run->chains[0].iterations() > 0);
    const int paths = storedDiagnostics(path, run->id)["pathfinder"].toObject()["paths"].toArray().size();
    QVERIFY2(paths >= 3 && paths < 256, qPrintable(QString::number(paths)));
    QCOMPARE(store::Project(path.toStdString()).run(run->id).status, store::RunStatus::stopped);
  }
};

QTEST_MAIN(TestStudioMethods)
#include "tst_studio_methods.moc"
