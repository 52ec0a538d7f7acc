// Simulation-based calibration in the studio, as a user drives it: SBC chosen in the Run
// panel (its rows and the NUTS fit's, not auto-stop's), Run pressed, the SBC panel filling
// as replications end (what it plots: each quantity's histogram holds every ranked
// replication, the ECDF difference ends at zero inside its band), the verdicts, and a
// replication with problems opened as a run of its own whose divergences are the
// replication's; and a studio killed (SIGKILL, by its PID) while its SBC run goes on, whose
// run continues on reopening to the ranks `variate sbc` gives for the seed, every
// replication stored once, and the studio's export of its ranks is `variate sbc`'s ranks.csv.

#include <csignal>

#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QTableWidget>
#include <QtTest/QtTest>

#include <qcustomplot.h>

#include "engine/services/setting_table.h"
#include "engine/store/project.h"

#include "tests/ui/studio_test_support.h"
#include "ui/app/draws_csv.h"
#include "ui/app/main_window.h"
#include "ui/app/run_coordinator.h"
#include "ui/docks/run_config_panel.h"
#include "ui/docks/sbc_panel.h"
#include "ui/document/project_document.h"

using namespace variate::ui;
namespace store = variate::store;

namespace {

const QString kSbc = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/sbc/");

// The non-centered eight schools and its data copied into `dir`; the model's path.
QString copyEightSchools(const QTemporaryDir& dir) {
  QFile::copy(kSbc + "eight_schools.vmod", dir.filePath("eight_schools.vmod"));
  QFile::copy(kSbc + "eight_schools.json", dir.filePath("eight_schools.json"));
  return dir.filePath("eight_schools.vmod");
}

// The sum of a plottable's values (a histogram's counts).
double sumOf(QCPBars* bars) {
  double sum = 0;
  for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) sum += it->value;
  return sum;
}

template <class T>
T* plottable(QCustomPlot* plot, const QString& name) {
  for (int i = 0; i < plot->plottableCount(); ++i) {
    if (plot->plottable(i)->name() == name) return qobject_cast<T*>(plot->plottable(i));
  }
  return nullptr;
}

bool rowShown(RunConfigPanel* panel, const QString& field) {
  QWidget* widget = panel->findChild<QWidget*>(field);
  return widget && !widget->isHidden();
}

// Replication -> its ranks joined, as ranks.csv's rows end ("3,400,17,...").
QMap<int, QString> storedRanks(const QString& projectPath, qint64 run) {
  QMap<int, QString> ranks;
  for (const auto& r : store::Project(projectPath.toStdString()).sbc_replications(run)) {
    QStringList values;
    for (const int64_t rank : r.ranks) values << QString::number(rank);
    ranks.insert(r.replication, values.join(","));
  }
  return ranks;
}

}  // namespace

class TestStudioSbc : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void thePanelFillsLiveAndOpensAReplicationsFit() {
    QTemporaryDir dir;
    const QString model = copyEightSchools(dir);
    MainWindow window;
    window.setQuietErrors(true);
    window.resize(1400, 900);
    window.show();
    QVERIFY(window.openPath(model));
    RunConfigPanel* settings = window.docks().runConfig;
    QVERIFY(studio_test::choose(settings, "method", "SBC"));
    // SBC's rows and its NUTS fit's; not auto-stop's, whose draws would differ per fit.
    for (const char* shown :
         {"replications", "thin", "fit", "parallel", "generator", "chains", "warmup", "adapt_delta"}) {
      QVERIFY2(rowShown(settings, shown), shown);
    }
    for (const char* hidden : {"until_ess", "predict", "prior", "num_paths"})
      QVERIFY2(!rowShown(settings, hidden), hidden);
    QVERIFY(studio_test::typeInto(settings, "replications", "24"));
    QVERIFY(studio_test::typeInto(settings, "parallel", "1"));  // one at a time: the panel fills in steps
    QVERIFY(studio_test::typeInto(settings, "seed", "11"));

    SbcPanel* panel = window.docks().sbc;
    QList<int> seen;  // replications ranked at each redraw
    connect(panel, &SbcPanel::refreshed, this, [&] { seen << panel->view().ranked; });
    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    window.actions().run->trigger();
    QVERIFY(ended.wait(300000));
    const RunPtr run = window.document()->runs()->current();
    QVERIFY(run);
    QCOMPARE(run->config.method, variate::services::Method::sbc);
    QVERIFY2(run->status == RunStatus::Finished, qPrintable(run->message));
    QVERIFY(studio_test::waitFor([&] { return panel->view().ranked == 24; }, 60000));
    // Live: it showed fewer replications before it showed them all.
    QVERIFY2(std::any_of(seen.begin(), seen.end(), [](int n) { return n > 0 && n < 24; }),
             qPrintable(QString("redraws at %1").arg([&] {
               QStringList s;
               for (int n : seen) s << QString::number(n);
               return s.join(",");
             }())));

    // What is plotted: each quantity's histogram holds the 24 ranks; its ECDF difference
    // starts and ends at 0, inside its band.
    QCOMPARE(panel->verdictTable()->rowCount(), 18);
    QCOMPARE(panel->plotted(), (QStringList{"mu", "tau", "theta_trans[1]"}));
    for (const QString& name : panel->plotted()) {
      QCPBars* bars = plottable<QCPBars>(panel->plot(), "ranks " + name);
      QVERIFY2(bars, qPrintable(name));
      QCOMPARE(sumOf(bars), 24.0);
      QCPGraph* ecdf = plottable<QCPGraph>(panel->plot(), "ECDF difference " + name);
      QVERIFY(ecdf && ecdf->dataCount() == 402);  // ranks 0 ... 400: K + 1 points
      QCOMPARE(ecdf->data()->constBegin()->value, 0.0);
      QVERIFY(std::abs((ecdf->data()->constEnd() - 1)->value) < 1e-12);
    }
    // Selecting a quantity in the table plots it.
    panel->verdictTable()->selectRow(12);
    QCOMPARE(panel->plotted(), QStringList{"theta[3]"});
    QVERIFY(plottable<QCPBars>(panel->plot(), "ranks theta[3]"));
    QVERIFY(panel->header()->text().contains("24 of 24 replications"));
    QVERIFY(panel->header()->text().contains("no sign of miscalibration"));

    // The problems: as stored; the first opened as a run of its own, whose divergences are
    // the replication's (the same data, seed and settings: the same draws).
    const auto stored = store::Project(window.document()->filePath().toStdString()).sbc_replications(run->id);
    QCOMPARE(int(stored.size()), 24);
    int problems = 0;
    for (const auto& r : stored) problems += SbcReplications::hadProblems(r) ? 1 : 0;
    QCOMPARE(panel->problemList()->count(), problems);
    QVERIFY2(problems > 0, "no replication had divergences: choose another seed");
    QListWidgetItem* first = panel->problemList()->item(0);
    const int index = first->data(Qt::UserRole).toInt();
    const auto replication =
        std::find_if(stored.begin(), stored.end(), [&](const auto& r) { return r.replication == index; });
    QSignalSpy fitEnded(window.coordinator(), &RunCoordinator::runEnded);
    emit panel->problemList()->itemActivated(first);
    QVERIFY(fitEnded.wait(120000));
    const RunPtr fit = window.document()->runs()->current();
    QCOMPARE(fit->name, ProjectDocument::sbcReplicationRunName(run->name, index));
    QCOMPARE(fit->config.method, variate::services::Method::nuts);
    QVERIFY(studio_test::waitFor([&] { return window.document()->runs()->current()->drawsLoaded; }, 30000));
    int64_t divergent = 0;
    for (const auto& chain : store::Project(window.document()->filePath().toStdString()).draws(fit->id)) {
      for (const double d : chain.column("divergent__")) divergent += d > 0 ? 1 : 0;
    }
    QCOMPARE(divergent, replication->divergences);
    // Asked again, it shows that run, fitting nothing.
    window.document()->runs()->setCurrent(run->id);
    emit panel->problemList()->itemActivated(panel->problemList()->item(0));
    QCOMPARE(window.document()->runs()->current()->id, fit->id);
    QVERIFY(!window.coordinator()->isRunning());
  }

  void aKilledStudiosSbcRunContinuesOnReopening() {
    QTemporaryDir dir;
    const QString model = copyEightSchools(dir);
    QProcess studio;
    studio.setProcessEnvironment(studio_test::childEnvironment(dir.path()));
    studio.setProcessChannelMode(QProcess::MergedChannels);
    studio.start(VARIATE_STUDIO_EXECUTABLE,
                 {model, "--method", "sbc", "--replications", "40", "--parallel", "1", "--seed", "5", "--run-on-open"});
    QVERIFY(studio.waitForStarted(30000));
    const QString projectPath = dir.filePath("eight_schools.variate");
    int stored = 0;
    QElapsedTimer clock;
    clock.start();
    while (stored < 6 && clock.elapsed() < 120000 && studio.state() == QProcess::Running) {
      studio.waitForReadyRead(100);
      try {
        const store::Project project(projectPath.toStdString());
        const auto runs = project.runs();
        stored = runs.empty() ? 0 : int(project.sbc_replications(runs.front().id).size());
      } catch (const store::ProjectError&) {  // not made yet
      }
    }
    QVERIFY2(stored >= 6 && stored < 40, qPrintable(QString::number(stored) + " stored; " + studio.readAll()));
    QCOMPARE(::kill(pid_t(studio.processId()), SIGKILL), 0);
    QVERIFY(studio.waitForFinished(30000));

    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    QVERIFY(window.openPath(projectPath));  // continues the interrupted run
    QVERIFY(window.coordinator()->isRunning());
    QVERIFY(ended.wait(300000));
    const RunPtr run = window.document()->runs()->current();
    QCOMPARE(run->config.method, variate::services::Method::sbc);
    QVERIFY2(run->status == RunStatus::Finished, qPrintable(run->message));
    QVERIFY(studio_test::waitFor([&] { return window.docks().sbc->view().ranked == 40; }, 60000));
    const QMap<int, QString> ranks = storedRanks(projectPath, run->id);
    QCOMPARE(ranks.size(), 40);
    QCOMPARE(store::Project(projectPath.toStdString()).sbc_replications(run->id).size(), size_t{40});

    // The ranks `variate sbc` gives for the seed, never killed.
    QProcess cli;
    cli.start(VARIATE_EXECUTABLE, {"sbc", model, "--data", dir.filePath("eight_schools.json"), "--replications", "40",
                                   "--seed", "5", "--quiet", "--output", dir.filePath("cli")});
    QVERIFY(cli.waitForFinished(300000));
    QCOMPARE(cli.exitCode(), 0);
    QFile csv(dir.filePath("cli/ranks.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QByteArray cliRanks = csv.readAll();
    const QStringList rows = QString::fromUtf8(cliRanks).trimmed().split('\n');
    QCOMPARE(rows.size(), 41);
    // The studio's export of the run's ranks is the command line's file, byte for byte.
    QString error;
    QVERIFY2(writeSbcRanksCsv(projectPath, run->id, dir.filePath("studio ranks.csv"), &error), qPrintable(error));
    QFile exported(dir.filePath("studio ranks.csv"));
    QVERIFY(exported.open(QIODevice::ReadOnly));
    QCOMPARE(exported.readAll(), cliRanks);
    for (int r = 1; r < rows.size(); ++r) {
      const QStringList cells = rows[r].split(',');  // replication, seed, divergences, max_rhat, failed, ranks...
      QCOMPARE(ranks.value(cells[0].toInt() - 1), cells.mid(5).join(","));
    }
  }
};

QTEST_MAIN(TestStudioSbc)
#include "tst_studio_sbc.moc"
