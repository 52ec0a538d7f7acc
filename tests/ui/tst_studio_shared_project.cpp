// The studio and `variate sample --project P` on one project at once: while the studio
// samples into its project, the command line records a run into it too, and the studio
// opens the project meanwhile (the command line's run shows running, not interrupted),
// renames that run and saves a copy (Save As) that is whole. The command line's run ends
// whole, the studio's (stopped) keeps every draw it made, the rename stays, and the file
// passes integrity_check.

#include <signal.h>

#include <QTreeWidget>
#include <QtTest/QtTest>

#include "engine/services/setting_table.h"
#include "engine/store/project.h"
#include "tests/app/project_file_checks.h"
#include "tests/ui/studio_nuts_run.h"
#include "ui/docks/log_panel.h"
#include "ui/docks/runs_panel.h"
#include "ui/document/project_document.h"

using namespace variate;

class TestStudioSharedProject : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { studio_test::isolateSettings(); }

  void studioAndCommandLineWriteOneProjectAtOnce() {
    QTemporaryDir dir;
    ui::MainWindow window;
    QVERIFY(studio_test::openExample(window, dir));
    const QString folder = dir.path() + "/eight_schools";
    const QString path = folder + "/eight_schools.variate";
    ui::ProjectDocument* document = window.document();

    // The studio's run goes on until it is stopped, so it overlaps the whole command line run.
    ui::RunConfig config = document->runConfig();
    config.method = services::Method::nuts;
    config.settings.set(services::setting::warmup, 200);
    config.settings.set(services::setting::draws, 1000000);  // within the memory bound; the test stops it
    config.settings.set(services::setting::seed, std::optional<uint64_t>(7));
    document->setRunConfig(config);
    QSignalSpy ended(window.coordinator(), &ui::RunCoordinator::runEnded);
    window.actions().run->trigger();
    QVERIFY(studio_test::waitFor([&] { return !app_test::ProjectFile(path).rows_by_run().empty(); }, 120000));
    const qint64 studioRun = document->runs()->currentId();

    constexpr int kCliWarmup = 100, kCliDraws = 3000;
    QProcess cli;
    cli.setProcessChannelMode(QProcess::MergedChannels);
    cli.start(VARIATE_EXECUTABLE, {"sample", folder + "/eight_schools.vmod", "--data", folder + "/data.json", "--backend",
                                "torch", "--chains", "1", "--warmup", QString::number(kCliWarmup), "--draws",
                                QString::number(kCliDraws), "--seed", "5", "--quiet", "--project", path});
    QVERIFY(cli.waitForStarted());
    const bool recording = studio_test::waitFor([&] {
      return cli.state() != QProcess::Running || app_test::ProjectFile(path).rows_by_run().size() == 2;
    }, 120000);
    QVERIFY2(recording && cli.state() == QProcess::Running, qPrintable(cli.readAll()));

    // Opened while both write: both runs are running, and renaming one writes.
    QString error;
    auto second = ui::ProjectDocument::open(path, &error);
    QVERIFY2(second, qPrintable(error));
    QCOMPARE(second->runs()->ids(), (QList<qint64>{studioRun, studioRun + 1}));
    const qint64 cliRun = studioRun + 1;
    QCOMPARE(second->runs()->run(studioRun)->status, ui::RunStatus::Running);
    QCOMPARE(second->runs()->run(cliRun)->status, ui::RunStatus::Running);
    second->renameRun(cliRun, "from the command line");
    // Save As while both write: a whole copy, the rename in it, the draws committed so far.
    const int64_t rowsBeforeCopy = app_test::ProjectFile(path).rows_by_run().at(cliRun);
    const QString copyPath = dir.path() + "/copy.variate";
    QVERIFY2(second->saveAs(copyPath, &error), qPrintable(error));
    second.reset();
    QCOMPARE(app_test::ProjectFile(copyPath).integrity(), QString("ok"));
    {
      const store::Project copy(copyPath.toStdString());
      QCOMPARE(copy.run(cliRun).name, std::string("from the command line"));
      const int64_t copied = app_test::ProjectFile(copyPath).rows_by_run().at(cliRun);
      QVERIFY2(copied >= rowsBeforeCopy, qPrintable(QString("%1 rows copied, %2 committed before").arg(copied).arg(rowsBeforeCopy)));
      QCOMPARE(app_test::read_back_draws(copy, cliRun, copied), copied);
    }

    QVERIFY(studio_test::waitFor([&] { return cli.state() != QProcess::Running; }, 180000));
    QVERIFY2(cli.exitStatus() == QProcess::NormalExit && cli.exitCode() == 0, qPrintable(cli.readAll()));
    QVERIFY2(ended.isEmpty(), "the studio's run ended before the command line's");
    window.actions().stop->trigger();
    QVERIFY(ended.wait(60000));
    const ui::RunPtr studio = document->runs()->run(studioRun);
    QCOMPARE(studio->status, ui::RunStatus::Stopped);

    QCOMPARE(app_test::ProjectFile(path).integrity(), QString("ok"));
    const store::Project project(path.toStdString());
    const auto rows = app_test::ProjectFile(path).rows_by_run();
    const store::RunInfo cliInfo = project.run(cliRun);
    QCOMPARE(cliInfo.status, store::RunStatus::finished);
    QCOMPARE(cliInfo.name, std::string("from the command line"));
    QCOMPARE(rows.at(cliRun), int64_t{kCliWarmup + kCliDraws});
    QCOMPARE(app_test::read_back_draws(project, cliRun, rows.at(cliRun)), rows.at(cliRun));
    QCOMPARE(project.run(studioRun).status, store::RunStatus::stopped);
    QCOMPARE(app_test::read_back_draws(project, studioRun, rows.at(studioRun)), rows.at(studioRun));
    for (const store::ChainDraws& chain : project.draws(studioRun)) {
      QCOMPARE(int(chain.rows), studio->chains[chain.chain].iterations());  // every draw the studio made
    }
  }

  // A run the command line adds to the open project shows in the Runs panel within
  // seconds, without reopening, and follows the file: running, then stopped (Ctrl-C) with
  // the draws it stored, not those it asked for. A second run cannot take its name.
  void runsAnotherProcessAddsShowInTheRunsPanel() {
    QTemporaryDir dir;
    ui::MainWindow window;
    QVERIFY(studio_test::openExample(window, dir));
    const QString folder = dir.path() + "/eight_schools";
    const QString path = folder + "/eight_schools.variate";
    QVERIFY(studio_test::runNuts(window, 100, 100, 3));
    const qint64 studioRun = window.document()->runs()->currentId();
    QTreeWidget* tree = window.docks().runs->tree();
    QCOMPARE(tree->topLevelItemCount(), 1);

    QProcess cli;
    cli.setProcessChannelMode(QProcess::MergedChannels);
    cli.start(VARIATE_EXECUTABLE, {"sample", folder + "/eight_schools.vmod", "--data", folder + "/data.json", "--chains",
                                   "1", "--warmup", "100", "--draws", "1000000", "--seed", "5", "--quiet", "--project",
                                   path, "--run-name", "from the shell"});
    QVERIFY(cli.waitForStarted());
    const auto row = [&]() -> QTreeWidgetItem* {
      for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        if (tree->topLevelItem(i)->text(0) == "from the shell") return tree->topLevelItem(i);
      }
      return nullptr;
    };
    QVERIFY2(studio_test::waitFor([&] { return row() && row()->text(2) == "running"; }, 60000), qPrintable(cli.readAll()));
    QCOMPARE(window.document()->runs()->currentId(), studioRun);  // the user's view stays
    // Some draws after warmup, then Ctrl-C: the command line keeps them and says so.
    QVERIFY(studio_test::waitFor([&] {
      const store::Project project(path.toStdString());
      return project.runs().back().sampling_draws >= 50;
    }, 120000));
    ::kill(static_cast<pid_t>(cli.processId()), SIGINT);
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 130);
    const store::RunInfo stored = store::Project(path.toStdString()).runs().back();
    QCOMPARE(stored.status, store::RunStatus::stopped);
    QVERIFY(stored.sampling_draws >= 50 && stored.sampling_draws < 1000000);
    QVERIFY(studio_test::waitFor([&] { return row() && row()->text(2) == "stopped"; }, 10000));
    QCOMPARE(row()->text(4), QString::number(stored.sampling_draws));

    // Renaming the studio's run to the other's name is refused, with a message; the name stays.
    QTreeWidgetItem* mine = tree->topLevelItem(0);
    const QString before = mine->text(0);
    mine->setText(0, "from the shell");
    QCOMPARE(window.document()->runs()->run(studioRun)->name, before);
    QCOMPARE(mine->text(0), before);
    QVERIFY(window.docks().log->toPlainText().contains("is already named 'from the shell'"));
    QCOMPARE(store::Project(path.toStdString()).run(studioRun).name, before.toStdString());
  }
};

QTEST_MAIN(TestStudioSharedProject)
#include "tst_studio_shared_project.moc"
