// The Run panel's Processes as a user sets them: a logistic regression on 2 processes (the
// studio and a `variate sample` it starts) finishes with every draw stored, the same draws as
// `variate sample --nproc 2`, the run's configuration and the log name the processes, and
// no child process is left; its further draws are the studio's alone. Stop ends such a run
// on every process; Pause is not offered.
// A rank killed mid-run fails the run naming it, keeping the draws made. A model whose
// rows cannot be split fails before any process starts, located in its text.

#include <signal.h>

#include <random>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QSpinBox>
#include <QToolBar>
#include <QTreeWidget>
#include <QtTest/QtTest>

#include "engine/store/project.h"

#include "engine/services/setting_table.h"
#include "tests/ui/studio_test_support.h"
#include "ui/app/main_window.h"
#include "ui/app/run_coordinator.h"
#include "ui/docks/log_panel.h"
#include "ui/docks/run_config_panel.h"
#include "ui/docks/runs_panel.h"
#include "ui/document/project_document.h"

namespace services = variate::services;

using namespace variate::ui;

namespace {

// The processes whose parent is this one, running or not yet reaped.
QList<qint64> childProcesses() {
  QList<qint64> children;
  const QString self = QString::number(QCoreApplication::applicationPid());
  for (const QString& entry : QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
    bool isPid = false;
    const qint64 pid = entry.toLongLong(&isPid);
    QFile stat("/proc/" + entry + "/stat");
    if (!isPid || !stat.open(QIODevice::ReadOnly)) continue;
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
    const QString text = QString::fromLatin1(stat.readAll());
    const QStringList fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    if (fields.size() > 1 && fields[1] == self) children << pid;
  }
  return children;
}

// A logistic regression, logistic.vmod with its data.json beside it (the studio opens
// both): y ~ Bernoulli(logits = X @ beta), X with an intercept column. Small, so that the
// lockstep of two processes at every iteration stays quick.
QString writeLogistic(const QTemporaryDir& dir) {
  std::mt19937_64 random(11);
  std::normal_distribution<double> normal;
  QJsonArray x, y;
  for (int i = 0; i < 200; ++i) {
    const double a = normal(random), b = normal(random);
    x.append(QJsonArray{1.0, a, b});
    y.append(std::uniform_real_distribution<double>()(random) < 1 / (1 + std::exp(-(0.3 + 0.5 * a - 0.25 * b))) ? 1 : 0);
  }
  QFile data(dir.filePath("data.json"));
  if (!data.open(QIODevice::WriteOnly)) return {};
  data.write(QJsonDocument(QJsonObject{{"N", 200}, {"D", 3}, {"X", x}, {"y", y}}).toJson());
  QFile model(dir.filePath("logistic.vmod"));
  if (!model.open(QIODevice::WriteOnly)) return {};
  model.write("data N: int\ndata D: int\ndata X: real[N, D]\ndata y: int[N]\n"
              "beta[D] ~ Normal(0, 1)\ny ~ Bernoulli(logits = X @ beta)\n");
  return model.fileName();
}

void click(MainWindow& window, QAction* action) {
  QWidget* button = window.actions().toolBar->widgetForAction(action);
  QVERIFY(button);
  QVERIFY(button->isEnabled());
  QTest::mouseClick(button, Qt::LeftButton);
}

// The Run panel as a user fills it: NUTS with 2 chains of `warmup` + `draws`, seed 3,
// on `processes` processes.
void configure(MainWindow& window, int warmup, int draws, int processes) {
  QWidget* panel = window.docks().runConfig;
  QVERIFY(studio_test::typeInto(panel, "chains", "2"));
  QVERIFY(studio_test::typeInto(panel, "warmup", QString::number(warmup)));
  QVERIFY(studio_test::typeInto(panel, "draws", QString::number(draws)));
  auto* seed = panel->findChild<QLineEdit*>("seed");
  QVERIFY(seed);
  seed->selectAll();
  QTest::keyClicks(seed, "3");
  QTest::keyClick(seed, Qt::Key_Return);
  QVERIFY(studio_test::typeInto(panel, "nproc", QString::number(processes)));
  const RunConfig& config = window.document()->runConfig();
  QCOMPARE(*config.settings.get(services::setting::nproc), processes);
  QCOMPARE(*config.settings.get(services::setting::seed), uint64_t(3));
  QCOMPARE(config.settings.get(services::setting::draws), draws);
}

QString logText(MainWindow& window) { return window.docks().log->toPlainText(); }

}  // namespace

class TestStudioProcesses : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
    QVERIFY2(childProcesses().isEmpty(), "the suite starts without child processes");
  }

  void twoProcessesDrawWhatTheCommandLineDraws() {
    QTemporaryDir dir;
    const QString model = writeLogistic(dir);
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    QVERIFY2(window.openPath(model), qPrintable(window.lastError()));
    configure(window, 100, 100, 2);
    auto* processes = window.docks().runConfig->findChild<QSpinBox*>("nproc");
    QVERIFY(processes->toolTip().contains(
        QString::fromStdString(variate::services::setting::nproc.descriptor().help)));

    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    click(window, window.actions().run);
    QVERIFY2(!window.actions().pause->isEnabled(), "a run on several processes is not paused");
    QVERIFY(window.actions().pause->toolTip().contains("several processes"));
    QVERIFY(ended.wait(120000));
    const RunPtr run = window.document()->runs()->current();
    QVERIFY2(run->status == RunStatus::Finished, qPrintable(run->message));
    QVERIFY2(logText(window).contains(QRegularExpression(
                 "running on 2 processes \\(rendezvous tcp://127\\.0\\.0\\.1:\\d+, rows split in 16 blocks\\), "
                 "\\d+ thread\\(s\\) each")),
             qPrintable(logText(window)));
    QVERIFY(studio_test::waitFor([] { return childProcesses().isEmpty(); }, 10000));

    variate::store::Project project(window.document()->filePath().toStdString());
    const QJsonObject config =
        QJsonDocument::fromJson(QByteArray::fromStdString(project.run(run->id).config_json)).object();
    QCOMPARE(config["nproc"].toInt(), 2);
    QCOMPARE(window.docks().runs->tree()->findItems("NUTS on 2 processes", Qt::MatchExactly, 1).size(), 1);
    const auto studio = project.draws(run->id);
    QCOMPARE(int(studio.size()), 2);
    for (const auto& chain : studio) {
      QCOMPARE(int(chain.rows), 200);
      QCOMPARE(chain.warmup_iterations, 100);
    }

    // `variate sample --nproc 2` with the same settings records the same bits.
    const QString cliProject = dir.filePath("cli.variate");
    QProcess cli;
    cli.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    cli.start(VARIATE_EXECUTABLE, {"sample", model, "--data", dir.filePath("data.json"), "--nproc", "2",
                                "--chains", "2", "--warmup", "100", "--draws", "100", "--seed", "3", "--quiet",
                                "--project", cliProject});
    QVERIFY(cli.waitForFinished(120000));
    QCOMPARE(cli.exitCode(), 0);
    variate::store::Project other(cliProject.toStdString());
    const auto cliRuns = other.runs();
    QCOMPARE(int(cliRuns.size()), 1);
    const auto reference = other.draws(cliRuns.front().id);
    QCOMPARE(int(reference.size()), 2);
    for (size_t c = 0; c < studio.size(); ++c) {
      QCOMPARE(reference[c].rows, studio[c].rows);
      for (size_t k = 0; k < studio[c].columns.size(); ++k) {
        const std::string& name = studio[c].columns[k];
        const auto& names = reference[c].columns;
        const auto at = std::find(names.begin(), names.end(), name);
        QVERIFY2(at != names.end(), name.c_str());
        for (size_t i = 0; i < studio[c].rows; ++i) {
          QVERIFY2(studio[c].at(i, k) == reference[c].at(i, size_t(at - names.begin())),
                   qPrintable(QString("chain %1, %2, row %3").arg(c + 1).arg(name.c_str()).arg(i)));
        }
      }
    }
    QVERIFY(childProcesses().isEmpty());

    // The other processes cannot resume chains: more draws are made by the studio alone.
    click(window, window.actions().runMore);
    QVERIFY(ended.wait(120000));
    const RunPtr continued = window.document()->runs()->run(run->id);
    QVERIFY2(continued->status == RunStatus::Finished, qPrintable(continued->message));
    QVERIFY(logText(window).contains("in the studio alone"));
    for (const auto& chain : project.draws(run->id)) QCOMPARE(int(chain.rows), 300);
    QVERIFY(childProcesses().isEmpty());

    // Read back from the file, the run still says how it was made.
    MainWindow reopened;
    reopened.setQuietErrors(true);
    QVERIFY2(reopened.openPath(window.document()->filePath()), qPrintable(reopened.lastError()));
    QCOMPARE(reopened.document()->runs()->run(run->id)->config.settings.get(services::setting::nproc), std::optional<int>(2));
  }

  // Stop reaches rank 0 alone; the lockstep stops the other at the same iteration.
  void stopEndsEveryProcess() {
    QTemporaryDir dir;
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    QVERIFY2(window.openPath(writeLogistic(dir)), qPrintable(window.lastError()));
    configure(window, 100, 10'000'000, 2);
    QSignalSpy batches(window.document()->runs(), &RunList::drawsAppended);
    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    click(window, window.actions().run);
    QVERIFY(batches.wait(60000));
    QVERIFY(studio_test::waitFor([&] { return batches.count() > 3; }, 60000));
    QCOMPARE(childProcesses().size(), 1);
    click(window, window.actions().stop);
    QVERIFY(ended.wait(60000));
    const RunPtr run = window.document()->runs()->current();
    QVERIFY2(run->status == RunStatus::Stopped, qPrintable(run->message));
    QVERIFY(studio_test::waitFor([] { return childProcesses().isEmpty(); }, 10000));
    variate::store::Project project(window.document()->filePath().toStdString());
    QCOMPARE(project.run(run->id).status, variate::store::RunStatus::stopped);
    const auto stored = project.draws(run->id);
    QVERIFY(!stored.empty());
    for (const auto& chain : stored) QCOMPARE(int(chain.rows), run->chains[chain.chain].iterations());
    QVERIFY(window.actions().run->isEnabled());
  }

  void aKilledRankFailsTheRunNamingIt() {
    QTemporaryDir dir;
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    QVERIFY2(window.openPath(writeLogistic(dir)), qPrintable(window.lastError()));
    configure(window, 100, 10'000'000, 2);
    QSignalSpy batches(window.document()->runs(), &RunList::drawsAppended);
    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    click(window, window.actions().run);
    QVERIFY(batches.wait(60000));
    const QList<qint64> children = childProcesses();
    QCOMPARE(children.size(), 1);
    QCOMPARE(::kill(pid_t(children.front()), SIGKILL), 0);
    QVERIFY(ended.wait(90000));
    const RunPtr run = window.document()->runs()->current();
    QCOMPARE(run->status, RunStatus::Failed);
    qInfo("%s", qPrintable(run->message));
    QVERIFY2(run->message.contains("rank 1"), qPrintable(run->message));
    QVERIFY2(run->message.contains("killed by signal 9"), qPrintable(run->message));
    QVERIFY(childProcesses().isEmpty());
    variate::store::Project project(window.document()->filePath().toStdString());
    QCOMPARE(project.run(run->id).status, variate::store::RunStatus::failed);
    const auto stored = project.draws(run->id);
    QVERIFY2(!stored.empty() && stored.front().rows > 0, "the draws made before the failure are kept");
  }

  // Eight schools has a parameter per row (theta_trans[J]): its rows stay together.
  void rowsThatCannotBeSplitFailLocated() {
    QTemporaryDir dir;
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    QVERIFY2(window.openPath(studio_test::copyProject("eight_schools", dir) + "/eight_schools.vmod"),
             qPrintable(window.lastError()));
    QVERIFY(studio_test::typeInto(window.docks().runConfig, "nproc", "2"));
    QSignalSpy failed(window.coordinator(), &RunCoordinator::runFailed);
    click(window, window.actions().run);
    QVERIFY(failed.wait(60000));
    const QString message = failed.front().front().toString();
    QVERIFY2(message.contains(QRegularExpression("^eight_schools\\.vmod:\\d+:\\d+: error: cannot split the rows "
                                                 "between processes")),
             qPrintable(message));
    QVERIFY(childProcesses().isEmpty());
  }

  // NUTS and ADVI split rows between processes; Pathfinder runs on one, so the row is not offered.
  void processesRowFollowsTheMethod() {
    QTemporaryDir dir;
    MainWindow window;
    window.show();
    QVERIFY2(window.openPath(writeLogistic(dir)), qPrintable(window.lastError()));
    QWidget* panel = window.docks().runConfig;
    auto* processes = panel->findChild<QSpinBox*>("nproc");
    QVERIFY(processes->isVisibleTo(panel));
    QVERIFY(studio_test::choose(panel, "method", "ADVI"));
    QVERIFY(processes->isVisibleTo(panel));
    QVERIFY(studio_test::choose(panel, "method", "Pathfinder"));
    QVERIFY(!processes->isVisibleTo(panel));
  }
};

QTEST_MAIN(TestStudioProcesses)
#include "tst_studio_processes.moc"
