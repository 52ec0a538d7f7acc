// Runs on a worker as a user makes them: eight schools on a loopback `variate worker`,
// added in the Workers panel and chosen in the Run panel's "Run on". The traces grow from
// the job's events, Pause and Resume hold the job on the worker, closing the window mid-run
// leaves the job on the worker (held, so that it is surely part-way), and reopening the
// project reattaches, shows it held and, resumed, completes the run with every draw
// stored once: the same draws `variate sample` makes with those settings. A variate-studio
// killed mid-run leaves the job too, and reopening its project fills the run in. A worker
// killed mid-run shows as reconnecting, then gone.
// Stop cancels the worker's job and keeps its draws. Run More Draws on the worker appends
// the bits the studio's own Run More Draws appends. An SBC run's "Also on" worker takes
// replications beside the studio, to the ranks `variate sbc` gives alone.

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolBar>
#include <QTreeWidget>
#include <QtTest/QtTest>

#include "engine/store/project.h"

#include "engine/services/setting_table.h"
#include "tests/support/loopback_worker.h"
#include "tests/ui/studio_test_support.h"
#include "ui/app/main_window.h"
#include "ui/app/run_coordinator.h"
#include "ui/docks/log_panel.h"
#include "ui/docks/run_config_panel.h"
#include "ui/docks/trace_panel.h"
#include "ui/docks/workers_panel.h"
#include "ui/document/project_document.h"

#ifdef VARIATE_WITH_REMOTE
#include "engine/remote/remote_client.h"

namespace services = variate::services;
#endif

using namespace variate::ui;

namespace {

constexpr int kChains = 4, kWarmup = 1000, kDraws = 1000;
// These runs must last while the tests pause, resume, stop or kill them part-way: on the
// tape eight schools' 4 x 2000 iterations take a tenth of a second, which can end before a
// pause reaches the worker; on LibTorch they take seconds.
constexpr const char* kBackend = "torch";
// A run here ends within seconds; waits for its end allow minutes, which a sanitizer
// build, several times slower and sharing two cores, can need.
constexpr int kRunEndMs = 300000;

void click(MainWindow& window, QAction* action) {
  QWidget* button = window.actions().toolBar->widgetForAction(action);
  QVERIFY(button);
  QVERIFY(button->isEnabled());
  QTest::mouseClick(button, Qt::LeftButton);
}

// The Workers panel as a user fills it, until the worker shows as reachable.
void addWorker(MainWindow& window, const remote_test::LoopbackWorker& worker) {
  WorkersPanel* panel = window.docks().workers;
  auto* address = panel->findChild<QLineEdit*>("workerAddress");
  auto* token = panel->findChild<QLineEdit*>("workerTokenFile");
  QVERIFY(address && token);
  QTest::keyClicks(address, worker.address());
  QTest::keyClicks(token, worker.token_file());
  QTest::mouseClick(panel->findChild<QPushButton*>("addWorker"), Qt::LeftButton);
  const auto line = [&] { return panel->itemOf(worker.address()) ? panel->itemOf(worker.address())->text(0) : QString(); };
  QVERIFY2(studio_test::waitFor([&] { return line().startsWith(worker.address() + ": reachable"); }, 20000),
           qPrintable(line()));
  QVERIFY2(line().contains(QRegularExpression("\\d+ cores · cpu")), qPrintable(line()));
}

// NUTS with kChains chains of kWarmup + kDraws, seed 5, on kBackend, on the worker.
void configure(MainWindow& window, const QString& address) {
  QWidget* panel = window.docks().runConfig;
  QVERIFY(studio_test::choose(panel, "run_on", address));
  QVERIFY(studio_test::choose(panel, "backend", kBackend));
  QVERIFY(studio_test::typeInto(panel, "chains", QString::number(kChains)));
  QVERIFY(studio_test::typeInto(panel, "warmup", QString::number(kWarmup)));
  QVERIFY(studio_test::typeInto(panel, "draws", QString::number(kDraws)));
  QVERIFY(studio_test::typeInto(panel, "threads", QString::number(kChains)));  // every chain at once, whatever the cores
  auto* seed = panel->findChild<QLineEdit*>("seed");
  seed->selectAll();
  QTest::keyClicks(seed, "5");
  QTest::keyClick(seed, Qt::Key_Return);
  const RunConfig& config = window.document()->runConfig();
  QCOMPARE(config.workerAddress(), address);
  QCOMPARE(config.settings.get(services::setting::draws), kDraws);
}

QJsonObject recordedConfig(const QString& projectPath, qint64 run) {
  variate::store::Project project(projectPath.toStdString());
  return QJsonDocument::fromJson(QByteArray::fromStdString(project.run(run).config_json)).object();
}

}  // namespace

class TestStudioRemote : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
#ifndef VARIATE_WITH_REMOTE
    QSKIP("built without remote workers (gRPC was not found)");
#endif
  }

#ifdef VARIATE_WITH_REMOTE
  void closingLeavesTheJobAndReopeningFillsItIn() {
    QTemporaryDir dir;
    remote_test::LoopbackWorker worker(VARIATE_EXECUTABLE, dir.path());
    QVERIFY2(!worker.address().isEmpty(), qPrintable(worker.errors()));
    const QString folder = studio_test::copyProject("eight_schools", dir);
    const variate::remote::RemoteClient client(
        variate::remote::WorkerEndpoint::from_files(worker.address().toStdString(), worker.token_file().toStdString(),
                                                    std::nullopt));

    QString projectPath;
    qint64 runId = -1;
    std::string job;
    {
      MainWindow window;
      window.setQuietErrors(true);
      window.show();
      QVERIFY2(window.openPath(folder + "/eight_schools.vmod"), qPrintable(window.lastError()));
      projectPath = window.document()->filePath();
      addWorker(window, worker);
      configure(window, worker.address());

      click(window, window.actions().run);
      // The run is recorded once the worker took the job; the record says where it is.
      QVERIFY(studio_test::waitFor([&] { return window.document()->runs()->current() != nullptr; }, 30000));
      runId = window.document()->runs()->current()->id;
      const QJsonObject remote = recordedConfig(projectPath, runId);
      QCOMPARE(remote["worker"].toString(), worker.address());
      QCOMPARE(remote["token_file"].toString(), worker.token_file());
      job = remote["job"].toString().toStdString();
      QVERIFY(!job.empty());

      // Pause holds the job on the worker (at once: it must not end before the window
      // closes); Resume lets it go on, and the traces grow from its draws.
      window.actions().pause->trigger();
      QVERIFY(studio_test::waitFor([&] { return client.job(job).state() == variate::remote::v1::PAUSED; }, 10000));
      TracePanel* traces = window.docks().traces;
      QVERIFY(studio_test::waitFor([&] { return traces->plottedIterations(0) > 0; }, 30000));
      const int first = traces->plottedIterations(0);
      window.actions().pause->trigger();
      QVERIFY(studio_test::waitFor([&] { return client.job(job).state() != variate::remote::v1::PAUSED; }, 10000));
      QVERIFY2(studio_test::waitFor([&] { return traces->plottedIterations(0) > first; }, 30000),
               "the trace of chain 1 grows with the job's draws");
      auto* link = window.docks().workers->findChild<QLabel*>("workerLink");
      QVERIFY2(link->text().contains("connected"), qPrintable(link->text()));

      // The job is held while the window closes, so that the run is surely part-way; the
      // Workers panel lists it so.
      window.actions().pause->trigger();
      QVERIFY(studio_test::waitFor([&] { return client.job(job).state() == variate::remote::v1::PAUSED; }, 10000));
      QVERIFY(studio_test::waitFor([&] {
        const QTreeWidgetItem* item = window.docks().workers->itemOf(worker.address());
        return item && item->childCount() == 1 && item->child(0)->text(0).contains("paused eight_schools");
      }, 10000));
      window.close();
    }
    // The job stays on the worker without the studio; the run waits, interrupted, with
    // part of its draws.
    QCOMPARE(client.job(job).state(), variate::remote::v1::PAUSED);
    {
      variate::store::Project project(projectPath.toStdString());
      QCOMPARE(project.run(runId).status, variate::store::RunStatus::interrupted);
      int64_t stored = 0;
      for (const auto& chain : project.chains(runId)) stored += chain.rows;
      QVERIFY2(stored < kChains * (kWarmup + kDraws), "the window closed before the job ended");
      qInfo("%lld of %d draws stored when the window closed", static_cast<long long>(stored), kChains * (kWarmup + kDraws));
    }

    MainWindow reopened;
    reopened.setQuietErrors(true);
    QSignalSpy ended(reopened.coordinator(), &RunCoordinator::runEnded);
    QVERIFY2(reopened.openPath(projectPath), qPrintable(reopened.lastError()));
    QVERIFY2(reopened.coordinator()->isRunning(), "reopening the project reattaches to the job");
    // It shows the job held, and Resume lets it go on to its end.
    QVERIFY(studio_test::waitFor([&] { return reopened.actions().pause->isChecked(); }, 10000));
    QVERIFY(studio_test::waitFor([&] { return reopened.docks().traces->plottedIterations(0) > 0; }, 30000));
    reopened.actions().pause->trigger();
    QVERIFY(ended.wait(kRunEndMs));
    const RunPtr run = reopened.document()->runs()->run(runId);
    QVERIFY2(run->status == RunStatus::Finished, qPrintable(run->message));
    QCOMPARE(client.job(job).state(), variate::remote::v1::FINISHED);
    QCOMPARE(reopened.docks().traces->plottedIterations(0), kWarmup + kDraws);

    // Every draw once, in order: the bits `variate sample` records with these settings.
    variate::store::Project project(projectPath.toStdString());
    QCOMPARE(project.run(runId).status, variate::store::RunStatus::finished);
    const auto draws = project.draws(runId);
    QCOMPARE(int(draws.size()), kChains);
    const QString cliProject = dir.filePath("cli.variate");
    QProcess cli;
    cli.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    cli.start(VARIATE_EXECUTABLE,
              {"sample", folder + "/eight_schools.vmod", "--data", folder + "/data.json", "--chains",
               QString::number(kChains), "--warmup", QString::number(kWarmup), "--draws", QString::number(kDraws),
               "--seed", "5", "--backend", kBackend, "--quiet", "--project", cliProject});
    QVERIFY(cli.waitForFinished(kRunEndMs));
    QCOMPARE(cli.exitCode(), 0);
    variate::store::Project other(cliProject.toStdString());
    const auto reference = other.draws(other.runs().front().id);
    for (int c = 0; c < kChains; ++c) {
      QCOMPARE(int(draws[c].rows), kWarmup + kDraws);
      QCOMPARE(draws[c].warmup_iterations, kWarmup);
      QCOMPARE(draws[c].columns, reference[c].columns);
      for (size_t i = 0; i < draws[c].rows; ++i) {
        for (size_t k = 0; k < draws[c].columns.size(); ++k) {
          QVERIFY2(draws[c].at(i, k) == reference[c].at(i, k),
                   qPrintable(QString("chain %1, %2, row %3").arg(c + 1).arg(draws[c].columns[k].c_str()).arg(i)));
        }
      }
    }
  }

  // variate-studio killed mid-run: the job is the worker's, and the run, left "running"
  // by a process that is gone, is reattached to when the project opens again.
  void killingTheStudioLeavesTheJob() {
    QTemporaryDir dir;
    remote_test::LoopbackWorker worker(VARIATE_EXECUTABLE, dir.path());
    QVERIFY2(!worker.address().isEmpty(), qPrintable(worker.errors()));
    const QString folder = studio_test::copyProject("eight_schools", dir);
    QProcess studio;
    studio.setProcessEnvironment(studio_test::childEnvironment(dir.path()));
    studio.start(VARIATE_STUDIO_EXECUTABLE,
                 {folder + "/eight_schools.vmod", "--run-on-open", "--run-on", worker.address(), "--worker-token-file",
                  worker.token_file(), "--chains", QString::number(kChains), "--warmup", QString::number(kWarmup),
                  "--draws", QString::number(kDraws), "--seed", "5", "--backend", kBackend, "--progress"});
    QString output;
    QVERIFY2(studio_test::waitFor([&] {
      output += QString::fromUtf8(studio.readAllStandardOutput());
      return output.contains(QRegularExpression("progress 0 [1-9]\\d{3}\\n")) || studio.state() == QProcess::NotRunning;
    }, 60000), qPrintable(output));
    QVERIFY2(studio.state() == QProcess::Running, qPrintable(output + studio.readAllStandardError()));
    studio.kill();
    QVERIFY(studio.waitForFinished(10000));
    const QString projectPath = folder + "/eight_schools.variate";
    {
      variate::store::Project project(projectPath.toStdString());  // marks the run interrupted
      int64_t stored = 0;
      for (const auto& chain : project.chains(1)) stored += chain.rows;
      QVERIFY2(stored < kChains * (kWarmup + kDraws), "the studio was killed before it had every draw");
    }

    MainWindow reopened;
    reopened.setQuietErrors(true);
    QSignalSpy ended(reopened.coordinator(), &RunCoordinator::runEnded);
    QVERIFY2(reopened.openPath(projectPath), qPrintable(reopened.lastError()));
    QVERIFY2(reopened.coordinator()->isRunning(), "reopening the project reattaches to the job");
    QVERIFY(ended.wait(kRunEndMs));
    const RunPtr run = reopened.document()->runs()->run(1);
    QVERIFY2(run->status == RunStatus::Finished, qPrintable(run->message));
    variate::store::Project project(projectPath.toStdString());
    for (const auto& chain : project.draws(1)) QCOMPARE(int(chain.rows), kWarmup + kDraws);
  }

  // A worker killed mid-run: the Workers panel says the link is reconnecting, then that
  // the worker is gone (once its heartbeats stop for the timeout); the run is left
  // interrupted with its draws, to reattach when the worker is back.
  void aGoneWorkerIsShown() {
    QTemporaryDir dir;
    remote_test::LoopbackWorker worker(VARIATE_EXECUTABLE, dir.path());
    QVERIFY2(!worker.address().isEmpty(), qPrintable(worker.errors()));
    const QString folder = studio_test::copyProject("eight_schools", dir);
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    QVERIFY2(window.openPath(folder + "/eight_schools.vmod"), qPrintable(window.lastError()));
    addWorker(window, worker);
    configure(window, worker.address());
    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    click(window, window.actions().run);
    QVERIFY(studio_test::waitFor([&] { return window.document()->runs()->current() != nullptr; }, 30000));
    window.actions().pause->trigger();  // it must not end before the worker does
    QVERIFY(studio_test::waitFor([&] { return window.docks().traces->plottedIterations(0) > 0; }, 30000));
    worker.kill();
    auto* link = window.docks().workers->findChild<QLabel*>("workerLink");
    QVERIFY2(studio_test::waitFor([&] { return link->text().contains("reconnecting"); }, 10000), qPrintable(link->text()));
    QVERIFY(ended.wait(kRunEndMs));
    QVERIFY2(link->text().contains("worker gone"), qPrintable(link->text()));
    const RunPtr run = window.document()->runs()->current();
    QVERIFY2(run->status == RunStatus::Interrupted, qPrintable(statusName(run->status) + ": " + run->message));
    QVERIFY(window.docks().workers->itemOf(worker.address()));
    QVERIFY(studio_test::waitFor([&] {
      return window.docks().workers->itemOf(worker.address())->text(0).contains("unreachable");
    }, 10000));
  }

  void stopCancelsTheJobAndKeepsItsDraws() {
    QTemporaryDir dir;
    remote_test::LoopbackWorker worker(VARIATE_EXECUTABLE, dir.path());
    QVERIFY2(!worker.address().isEmpty(), qPrintable(worker.errors()));
    const QString folder = studio_test::copyProject("eight_schools", dir);
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    QVERIFY2(window.openPath(folder + "/eight_schools.vmod"), qPrintable(window.lastError()));
    addWorker(window, worker);
    configure(window, worker.address());
    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    click(window, window.actions().run);
    // Held at once, so that the job is surely part-way when Stop comes.
    QVERIFY(studio_test::waitFor([&] { return window.document()->runs()->current() != nullptr; }, 30000));
    window.actions().pause->trigger();
    QVERIFY(studio_test::waitFor([&] { return window.docks().traces->plottedIterations(0) > 0; }, 30000));
    click(window, window.actions().stop);
    QVERIFY(ended.wait(30000));
    const RunPtr run = window.document()->runs()->current();
    QVERIFY2(run->status == RunStatus::Stopped, qPrintable(run->message));
    const std::string job = recordedConfig(window.document()->filePath(), run->id)["job"]
                                .toString().toStdString();
    const variate::remote::RemoteClient client(
        variate::remote::WorkerEndpoint::from_files(worker.address().toStdString(), worker.token_file().toStdString(),
                                                    std::nullopt));
    QCOMPARE(client.job(job).state(), variate::remote::v1::STOPPED);
    variate::store::Project project(window.document()->filePath().toStdString());
    for (const auto& chain : project.draws(run->id)) {
      QVERIFY(chain.rows > 0);
      QVERIFY(int(chain.rows) < kWarmup + kDraws);
    }
  }

  // Run More Draws on a worker, the window closed while the new job is held: the run's
  // record names the new job and the rows it continues, and reopening fills in the rest,
  // each row once, after the rows the run had.
  void moreDrawsOnAWorkerReattachToo() {
    QTemporaryDir dir;
    remote_test::LoopbackWorker worker(VARIATE_EXECUTABLE, dir.path());
    QVERIFY2(!worker.address().isEmpty(), qPrintable(worker.errors()));
    const QString folder = studio_test::copyProject("eight_schools", dir);
    const variate::remote::RemoteClient client(
        variate::remote::WorkerEndpoint::from_files(worker.address().toStdString(), worker.token_file().toStdString(),
                                                    std::nullopt));
    constexpr int kMore = 5000;
    QString projectPath;
    qint64 id = -1;
    std::string more;
    std::vector<variate::store::ChainDraws> before;
    {
      MainWindow window;
      window.setQuietErrors(true);
      window.show();
      QVERIFY2(window.openPath(folder + "/eight_schools.vmod"), qPrintable(window.lastError()));
      projectPath = window.document()->filePath();
      addWorker(window, worker);
      QWidget* panel = window.docks().runConfig;
      QVERIFY(studio_test::choose(panel, "run_on", worker.address()));
      QVERIFY(studio_test::choose(panel, "backend", kBackend));  // the new job must last until it is held
      QVERIFY(studio_test::typeInto(panel, "chains", "2"));
      QVERIFY(studio_test::typeInto(panel, "warmup", "200"));
      QVERIFY(studio_test::typeInto(panel, "draws", "300"));
      QVERIFY(studio_test::typeInto(panel, "seed", "5"));  // the same seed on both, as no seed is drawn at random
      QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
      click(window, window.actions().run);
      QVERIFY(ended.wait(kRunEndMs));
      id = window.document()->runs()->current()->id;
      const std::string first = recordedConfig(projectPath, id)["job"].toString().toStdString();
      before = variate::store::Project(projectPath.toStdString()).draws(id);
      QVERIFY(studio_test::typeInto(panel, "draws", QString::number(kMore)));
      click(window, window.actions().runMore);
      QVERIFY(studio_test::waitFor([&] {
        more = recordedConfig(projectPath, id)["job"].toString().toStdString();
        return more != first;
      }, 30000));
      window.actions().pause->trigger();
      QVERIFY(studio_test::waitFor([&] { return client.job(more).state() == variate::remote::v1::PAUSED; }, 10000));
      const QJsonArray offsets = recordedConfig(projectPath, id)["job_offsets"].toArray();
      QCOMPARE(offsets, (QJsonArray{500, 500}));
      window.close();
    }
    {
      variate::store::Project project(projectPath.toStdString());
      QCOMPARE(project.run(id).status, variate::store::RunStatus::interrupted);
      QVERIFY(project.chains(id)[0].rows < 500 + kMore);
    }
    MainWindow reopened;
    reopened.setQuietErrors(true);
    QSignalSpy ended(reopened.coordinator(), &RunCoordinator::runEnded);
    QVERIFY2(reopened.openPath(projectPath), qPrintable(reopened.lastError()));
    QVERIFY2(reopened.coordinator()->isRunning(), "reopening the project reattaches to the new job");
    QVERIFY(studio_test::waitFor([&] { return reopened.actions().pause->isChecked(); }, 10000));
    reopened.actions().pause->trigger();
    QVERIFY(ended.wait(120000));
    const RunPtr run = reopened.document()->runs()->run(id);
    QVERIFY2(run->status == RunStatus::Finished, qPrintable(run->message));
    QCOMPARE(client.job(more).state(), variate::remote::v1::FINISHED);
    const auto after = variate::store::Project(projectPath.toStdString()).draws(id);
    for (int c = 0; c < 2; ++c) {
      QCOMPARE(int(after[c].rows), 500 + kMore);
      QCOMPARE(after[c].warmup_iterations, 200);
      const size_t width = after[c].columns.size();
      QVERIFY(std::equal(before[c].values.begin(), before[c].values.end(), after[c].values.begin()));
      QCOMPARE(after[c].values.size(), (500 + kMore) * width);
    }
  }

  void sbcReplicationsAlsoOnAWorker() {
    QTemporaryDir dir;
    remote_test::LoopbackWorker worker(VARIATE_EXECUTABLE, dir.path());
    QVERIFY2(!worker.address().isEmpty(), qPrintable(worker.errors()));
    const QString sbc = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/sbc/");
    QFile::copy(sbc + "logistic.vmod", dir.filePath("logistic.vmod"));
    QFile::copy(sbc + "logistic.json", dir.filePath("logistic.json"));
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    QVERIFY2(window.openPath(dir.filePath("logistic.vmod")), qPrintable(window.lastError()));
    addWorker(window, worker);
    QWidget* panel = window.docks().runConfig;
    QVERIFY(studio_test::choose(panel, "method", "SBC"));
    QVERIFY(studio_test::choose(panel, "run_on", worker.address()));
    QVERIFY(studio_test::typeInto(panel, "replications", "8"));
    QVERIFY(studio_test::typeInto(panel, "parallel", "1"));
    QVERIFY(studio_test::typeInto(panel, "seed", "3"));
    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    click(window, window.actions().run);
    QVERIFY2(ended.wait(kRunEndMs), qPrintable(window.docks().log->toPlainText()));
    const RunPtr run = window.document()->runs()->current();
    QVERIFY2(run->status == RunStatus::Finished, qPrintable(run->message));
    QProcess jobs;
    jobs.start(VARIATE_EXECUTABLE, {"jobs", "--worker", worker.address(), "--token-file", worker.token_file()});
    QVERIFY(jobs.waitForFinished(60000));
    QVERIFY2(jobs.readAllStandardOutput().contains("logistic.vmod"), "the worker fitted none");  // it took some
    QProcess cli;
    cli.start(VARIATE_EXECUTABLE, {"sbc", dir.filePath("logistic.vmod"), "--data", dir.filePath("logistic.json"),
                                   "--replications", "8", "--seed", "3", "--quiet", "--output", dir.filePath("cli")});
    QVERIFY(cli.waitForFinished(kRunEndMs));
    QFile csv(dir.filePath("cli/ranks.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList rows = QString::fromUtf8(csv.readAll()).trimmed().split('\n');
    QCOMPARE(rows.size(), 9);
    const auto stored = variate::store::Project(window.document()->filePath().toStdString()).sbc_replications(run->id);
    QCOMPARE(int(stored.size()), 8);
    for (const auto& replication : stored) {
      QStringList ranks;
      for (const int64_t rank : replication.ranks) ranks << QString::number(rank);
      QCOMPARE(ranks.join(","), rows[replication.replication + 1].split(',').mid(5).join(","));
    }
  }

  void moreDrawsOnTheWorkerAreTheLocalOnes() {
    QTemporaryDir dir;
    remote_test::LoopbackWorker worker(VARIATE_EXECUTABLE, dir.path());
    QVERIFY2(!worker.address().isEmpty(), qPrintable(worker.errors()));
    std::vector<std::vector<variate::store::ChainDraws>> made;
    for (const bool remote : {true, false}) {
      const QString folder = studio_test::copyProject("eight_schools", dir) + (remote ? "" : "/local");
      if (!remote) {
        QDir().mkpath(folder);
        for (const char* file : {"eight_schools.vmod", "data.json"}) {
          QFile::copy(studio_test::kProjects + "eight_schools/" + file, folder + "/" + file);
        }
      }
      MainWindow window;
      window.setQuietErrors(true);
      window.show();
      QVERIFY2(window.openPath(folder + "/eight_schools.vmod"), qPrintable(window.lastError()));
      if (remote) addWorker(window, worker);
      QWidget* panel = window.docks().runConfig;
      QVERIFY(studio_test::choose(panel, "run_on", remote ? worker.address() : "This computer"));
      QVERIFY(studio_test::typeInto(panel, "chains", "2"));
      QVERIFY(studio_test::typeInto(panel, "warmup", "200"));
      QVERIFY(studio_test::typeInto(panel, "draws", "300"));
      QVERIFY(studio_test::typeInto(panel, "seed", "5"));  // the same seed on both, as no seed is drawn at random
      QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
      click(window, window.actions().run);
      QVERIFY(ended.wait(kRunEndMs));
      const qint64 id = window.document()->runs()->current()->id;
      QVERIFY2(window.document()->runs()->run(id)->status == RunStatus::Finished,
               qPrintable(window.document()->runs()->run(id)->message));
      click(window, window.actions().runMore);
      QVERIFY2(ended.wait(kRunEndMs), qPrintable(window.docks().log->toPlainText()));
      const RunPtr run = window.document()->runs()->run(id);
      QVERIFY2(run->status == RunStatus::Finished, qPrintable(run->message));
      QCOMPARE(window.docks().traces->plottedIterations(1), 800);
      variate::store::Project project(window.document()->filePath().toStdString());
      made.push_back(project.draws(id));
    }
    for (int c = 0; c < 2; ++c) {
      const auto &remote = made[0][c], &local = made[1][c];
      QCOMPARE(int(remote.rows), 800);
      QCOMPARE(remote.warmup_iterations, 200);
      QCOMPARE(remote.columns, local.columns);
      for (size_t i = 0; i < remote.rows; ++i) {
        for (size_t k = 0; k < remote.columns.size(); ++k) {
          QVERIFY2(remote.at(i, k) == local.at(i, k),
                   qPrintable(QString("chain %1, %2, row %3").arg(c + 1).arg(remote.columns[k].c_str()).arg(i)));
        }
      }
    }
  }
#endif
};

QTEST_MAIN(TestStudioRemote)
#include "tst_studio_remote.moc"
