// kill -9 of the studio while it samples: the project still opens, the run is marked
// interrupted, and every draw the studio had made at least one second before the kill is
// in the file. The studio runs as a child process that reports its progress on stdout.

#include <QtTest/QtTest>

#include "engine/store/project.h"

#include "tests/ui/studio_test_support.h"
#include "ui/document/project_document.h"

using namespace variate;

class TestStudioCrash : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { studio_test::isolateSettings(); }

  void killedRunIsInterruptedAndKeepsItsDraws() {
    QTemporaryDir dir;
    const QString folder = studio_test::copyProject("eight_schools", dir);
    QProcess studio;
    studio.setProcessEnvironment(studio_test::childEnvironment(dir.path()));
    // --threads 4: every chain runs from the start, whatever this machine's cores.
    studio.start(VARIATE_STUDIO_EXECUTABLE, {folder + "/eight_schools.vmod", "--run-on-open", "--warmup", "300",
                                             "--draws", "1000000", "--seed", "3", "--threads", "4", "--progress"});
    QVERIFY(studio.waitForStarted(30000));

    // Iterations per chain the studio reported, with when the test read them.
    QElapsedTimer clock;
    clock.start();
    struct Report { qint64 at; int chain; int iterations; };
    QList<Report> reports;
    QByteArray pending;
    const auto readReports = [&] {
      pending += studio.readAllStandardOutput();
      int newline;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const QList<QByteArray> words = pending.left(newline).split(' ');
        pending.remove(0, newline + 1);
        if (words.size() == 3 && words[0] == "progress") reports << Report{clock.elapsed(), words[1].toInt(), words[2].toInt()};
      }
    };
    const bool sampling = studio_test::waitFor([&] {
      readReports();
      return !reports.isEmpty() && reports.last().iterations > 1500 && clock.elapsed() > 2500;
    }, 120000);
    QVERIFY2(sampling, qPrintable(studio.readAllStandardError()));
    QTest::qWait(1200);  // a second and more of sampling since the draws we count on
    readReports();
    const qint64 killedAt = clock.elapsed();
    studio.kill();  // SIGKILL: no handler, no flush, no goodbye
    QVERIFY(studio.waitForFinished(30000));
    QCOMPARE(studio.exitStatus(), QProcess::CrashExit);

    std::map<int, int> madeBefore;  // per chain: iterations reported a second or more before the kill
    for (const Report& r : reports) {
      if (r.at <= killedAt - 1000) madeBefore[r.chain] = std::max(madeBefore[r.chain], r.iterations);
    }
    QCOMPARE(int(madeBefore.size()), 4);

    const QString projectPath = folder + "/eight_schools.variate";
    store::Project project(projectPath.toStdString());
    const auto runs = project.runs();
    QCOMPARE(int(runs.size()), 1);
    QCOMPARE(runs.front().status, store::RunStatus::interrupted);
    for (const auto& chain : project.draws(runs.front().id)) {
      QVERIFY2(int(chain.rows) >= madeBefore[chain.chain],
               qPrintable(QString("chain %1: %2 rows stored, %3 made a second before the kill")
                              .arg(chain.chain + 1).arg(chain.rows).arg(madeBefore[chain.chain])));
      qInfo("chain %d: %zu rows stored; %d reported a second before the kill", chain.chain + 1, chain.rows,
            madeBefore[chain.chain]);
    }

    QString error;
    auto document = ui::ProjectDocument::open(projectPath, &error);
    QVERIFY2(document, qPrintable(error));
    QCOMPARE(document->runs()->current()->status, ui::RunStatus::Interrupted);
  }
};

QTEST_MAIN(TestStudioCrash)
#include "tst_studio_crash.moc"
