// The LOO panel: for a finished NUTS run of eight schools, the Pareto k of each school
// and elpd_loo, p_loo and looic with their SEs equal psis_loo on the log likelihood
// written out from the model here, and again after Run More Draws; a second run joins
// the comparison, ranked by elpd_loo with elpd_diff 0 for the best. Each LOO is stored
// with its run (the document `variate loo --project` writes) and replaced once the run
// has more draws; `variate compare --project` ranks by what the studio stored, and a
// reopened project shows what `variate loo --project` stored, without computing it.

#include <optional>

#include <QDockWidget>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QTableWidget>
#include <QtTest/QtTest>

#include <qcustomplot.h>
#include "engine/diagnostics/loo.h"
#include "engine/store/project.h"
#include "engine/workflow/loo_document.h"

#include "tests/ui/eight_schools_log_lik.h"
#include "tests/ui/studio_nuts_run.h"
#include "tests/ui/studio_test_support.h"
#include "ui/app/run_coordinator.h"
#include "ui/docks/loo_panel.h"

using namespace variate::ui;
namespace vd = variate::diagnostics;

namespace {

QString cell(QTableWidget* table, int row, int column) {
  const QTableWidgetItem* item = table->item(row, column);
  return item ? item->text() : QString();
}

QString number(double value) { return QString::number(value, 'f', 2); }

// The LOO document stored with run `id` of the project at `path`, or nothing.
std::optional<std::string> storedLoo(const QString& path, qint64 id) {
  return variate::store::Project(path.toStdString()).loo_json(id);
}

// Runs `variate ARGUMENTS`; its exit code (-1 when it did not finish).
int runVariate(const QStringList& arguments) {
  QProcess cli;
  cli.setProcessChannelMode(QProcess::ForwardedChannels);
  cli.start(VARIATE_EXECUTABLE, arguments);
  if (!cli.waitForFinished(120000)) return -1;
  return cli.exitCode();
}

// Opens the project at `path` in `window` with the LOO panel in front on run `id`; the
// panel, once it shows estimates (nullptr if it does not).
LooPanel* showLooOf(MainWindow& window, const QString& path, qint64 id) {
  window.setQuietErrors(true);
  window.resize(1500, 950);
  window.show();
  if (!QTest::qWaitForWindowExposed(&window) || !window.openPath(path)) return nullptr;
  window.docks().dock("looDock")->raise();
  window.document()->runs()->setCurrent(id);
  LooPanel* panel = window.docks().loo;
  return studio_test::waitFor([&] { return !cell(panel->estimates(), 0, 1).isEmpty(); }, 60000) ? panel : nullptr;
}

QJsonObject readJson(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object() : QJsonObject();
}

}  // namespace

class TestLooPanel : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void paretoKAndEstimatesAndComparison() {
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY2(studio_test::openExample(window, dir), qPrintable(window.lastError()));
    LooPanel* panel = window.docks().loo;
    window.docks().dock("looDock")->raise();
    QVERIFY(studio_test::runNuts(window, 200, 300, 5));
    const RunPtr first = window.document()->runs()->current();
    QVERIFY(studio_test::waitFor([&] { return !cell(panel->estimates(), 0, 1).isEmpty(); }, 60000));

    const vd::LooResult expected = vd::psis_loo(studio_test::eightSchoolsLogLik(*first));
    QCOMPARE(cell(panel->estimates(), 0, 0), QString("elpd_loo"));
    QCOMPARE(cell(panel->estimates(), 0, 1), number(expected.elpd_loo));
    QCOMPARE(cell(panel->estimates(), 0, 2), number(expected.se_elpd_loo));
    QCOMPARE(cell(panel->estimates(), 1, 1), number(expected.p_loo));
    QCOMPARE(cell(panel->estimates(), 1, 2), number(expected.se_p_loo));
    QCOMPARE(cell(panel->estimates(), 2, 1), number(expected.looic));
    QCOMPARE(cell(panel->estimates(), 2, 2), number(expected.se_looic));

    // One k per school, at 1..8, with the 0.5, 0.7 and 1 lines.
    QCustomPlot* plot = panel->plot();
    QCOMPARE(plot->graphCount(), 1);
    QCPGraph* k = plot->graph(0);
    QCOMPARE(k->dataCount(), 8);
    for (int i = 0; i < 8; ++i) {
      QCOMPARE(k->data()->at(i)->key, double(i + 1));
      QVERIFY(std::abs(k->data()->at(i)->value - expected.pareto_k[i]) < 1e-9);
    }
    QList<double> levels;
    for (int i = 0; i < plot->itemCount(); ++i) {
      if (auto* line = qobject_cast<QCPItemStraightLine*>(plot->item(i))) levels << line->point1->coords().y();
    }
    QCOMPARE(levels, QList<double>({0.5, 0.7, 1.0}));
    QCOMPARE(panel->comparison()->rowCount(), 1);
    QVERIFY(!panel->findChild<QLabel*>("looCaption")->text().contains("stored"));  // computed

    // Stored with the run, as loo --project stores it: every chain's 300 draws.
    const QString path = window.document()->filePath();
    const int chains = static_cast<int>(first->chains.size());
    std::optional<std::string> stored = storedLoo(path, first->id);
    QVERIFY(stored);
    QCOMPARE(variate::workflow::loo_document_draws(*stored), size_t(chains * 300));
    QVERIFY(std::abs(variate::workflow::loo_from_document(*stored).elpd_loo - expected.elpd_loo) < 1e-9);

    // Run More Draws grows the run: its LOO is computed again, on all its draws.
    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    QTest::mouseClick(window.actions().toolBar->widgetForAction(window.actions().runMore), Qt::LeftButton);
    QVERIFY(ended.wait(120000));
    const RunPtr grown = window.document()->runs()->current();
    QCOMPARE(grown->id, first->id);
    QCOMPARE(grown->samplingDrawsPerChain(), 600);
    const vd::LooResult regrown = vd::psis_loo(studio_test::eightSchoolsLogLik(*grown));
    QVERIFY(studio_test::waitFor([&] { return cell(panel->estimates(), 0, 1) == number(regrown.elpd_loo); }, 60000));
    QVERIFY(std::abs(plot->graph(0)->data()->at(0)->value - regrown.pareto_k[0]) < 1e-9);
    // The 300 draws' LOO went with the new draws; the 600 draws' one replaced it.
    QVERIFY(studio_test::waitFor([&] { return storedLoo(path, first->id).has_value(); }, 10000));
    stored = storedLoo(path, first->id);
    QCOMPARE(variate::workflow::loo_document_draws(*stored), size_t(chains * 600));
    QVERIFY(std::abs(variate::workflow::loo_from_document(*stored).elpd_loo - regrown.elpd_loo) < 1e-9);

    // A second run of the project joins the comparison; the better one first, at 0.
    QVERIFY(studio_test::runNuts(window, 200, 300, 6));
    const RunPtr second = window.document()->runs()->current();
    QVERIFY(studio_test::waitFor([&] { return panel->comparison()->rowCount() == 2; }, 60000));
    const vd::LooResult other = vd::psis_loo(studio_test::eightSchoolsLogLik(*second));
    const auto ranked = vd::compare_loo({first->name.toStdString(), second->name.toStdString()}, {regrown, other});
    for (int r = 0; r < 2; ++r) {
      QCOMPARE(cell(panel->comparison(), r, 0), QString::fromStdString(ranked[r].name));
      QCOMPARE(cell(panel->comparison(), r, 1), number(ranked[r].elpd_diff));
      QCOMPARE(cell(panel->comparison(), r, 2), number(ranked[r].se_diff));
      QCOMPARE(cell(panel->comparison(), r, 3), number(ranked[r].elpd_loo));
    }
    QCOMPARE(cell(panel->comparison(), 0, 1), number(0));

    QTemporaryDir out;
    QString error;
    QVERIFY2(panel->exportTo(out.filePath("k.svg"), &error), qPrintable(error));
    QVERIFY(QFileInfo(out.filePath("k.svg")).size() > 200);
  }

  void theCommandLineAndTheStudioShareTheStoredLoo() {
    QTemporaryDir dir;
    QString path;
    qint64 firstId = 0, secondId = 0;
    QString firstName, secondName;
    {
      MainWindow window;
      QVERIFY2(studio_test::openExample(window, dir), qPrintable(window.lastError()));
      LooPanel* panel = window.docks().loo;
      window.docks().dock("looDock")->raise();
      QVERIFY(studio_test::runNuts(window, 200, 300, 5));
      QVERIFY(studio_test::runNuts(window, 200, 300, 6));
      QVERIFY(studio_test::waitFor([&] { return panel->comparison()->rowCount() == 2; }, 60000));
      path = window.document()->filePath();
      const QList<qint64> ids = window.document()->runs()->ids();
      firstId = ids[0];
      secondId = ids[1];
      firstName = window.document()->runs()->run(firstId)->name;
      secondName = window.document()->runs()->run(secondId)->name;
    }
    QVERIFY(storedLoo(path, firstId) && storedLoo(path, secondId));

    // compare --project ranks by what the studio stored: a stored LOO moved by 5 per
    // school (nothing computed from the draws could give it) is the one it reports.
    auto moved = variate::workflow::loo_from_document(*storedLoo(path, secondId));
    moved.elpd_loo -= 40;
    for (double& elpd : moved.pointwise_elpd) elpd -= 5;
    const size_t draws = variate::workflow::loo_document_draws(*storedLoo(path, secondId));
    variate::store::Project(path.toStdString()).set_loo(secondId, variate::workflow::loo_document(moved, draws));
    QTemporaryDir out;
    QCOMPARE(runVariate({"compare", "--project", path, firstName, secondName, "--summary-json", out.filePath("c.json")}), 0);
    const QJsonArray models = readJson(out.filePath("c.json"))["models"].toArray();
    QCOMPARE(models.size(), 2);
    QCOMPARE(models[1].toObject()["name"].toString(), secondName);
    QCOMPARE(models[1].toObject()["elpd_loo"].toDouble(), moved.elpd_loo);
    QVERIFY(models[1].toObject()["elpd_diff"].toDouble() < -35);

    // What loo --project stores shows in the reopened studio as stored, not computed.
    QCOMPARE(runVariate({"loo", "--project", path, "--run", firstName, "--summary-json", out.filePath("l.json")}), 0);
    const QJsonObject cli = readJson(out.filePath("l.json"));
    MainWindow reopened;
    LooPanel* panel = showLooOf(reopened, path, firstId);
    QVERIFY(panel);
    auto* caption = panel->findChild<QLabel*>("looCaption");
    QVERIFY2(caption->text().contains("As stored with the run"), qPrintable(caption->text()));
    QCOMPARE(cell(panel->estimates(), 0, 1), number(cli["elpd_loo"].toDouble()));
    QCOMPARE(cell(panel->estimates(), 1, 1), number(cli["p_loo"].toDouble()));
    QCOMPARE(cell(panel->estimates(), 2, 2), number(cli["se_looic"].toDouble()));
    QCOMPARE(panel->plot()->graph(0)->data()->at(3)->value, cli["pareto_k"].toArray()[3].toDouble());
    // The comparison takes the second run's stored (moved) LOO too.
    QVERIFY(studio_test::waitFor([&] { return panel->comparison()->rowCount() == 2; }, 60000));
    QCOMPARE(cell(panel->comparison(), 0, 0), firstName);
    QCOMPARE(cell(panel->comparison(), 1, 3), number(moved.elpd_loo));

    // A stored LOO of other draws than the run's is stale: computed again, and replaced.
    variate::store::Project(path.toStdString())
        .set_loo(firstId, variate::workflow::loo_document(moved, draws / 2));
    MainWindow third;
    panel = showLooOf(third, path, firstId);
    QVERIFY(panel);
    QVERIFY(!panel->findChild<QLabel*>("looCaption")->text().contains("stored"));
    QCOMPARE(cell(panel->estimates(), 0, 1), number(cli["elpd_loo"].toDouble()));
    QCOMPARE(variate::workflow::loo_document_draws(*storedLoo(path, firstId)), draws);
  }
};

QTEST_MAIN(TestLooPanel)
#include "tst_loo_panel.moc"
