// A disk that fills up under a run, made by a file-size limit on the child (RLIMIT_FSIZE,
// what `ulimit -f` sets: a write past it fails with EFBIG). `variate sample --project P`
// whose project cannot grow stops by itself with a message naming the file and the cause
// and a nonzero exit, keeps every draw committed before, and leaves a project that opens
// and passes integrity_check. Chain CSV files (--output) that cannot grow stop the run the
// same way.

#include <sys/resource.h>

#include <QtTest/QtTest>

#include "tests/app/project_file_checks.h"
#include "tests/app/run_program.h"

namespace store = variate::store;

using namespace app_test;

namespace {

QStringList eight_schools(const QString& draws, const QString& seed) {
  return {"sample", kEightSchools + "eight_schools.vmod", "--data", kEightSchools + "data.json", "--chains", "2",
          "--warmup", "20", "--draws", draws, "--seed", seed, "--quiet"};
}

// The child may write no file past `bytes`. SIGXFSZ keeps its default action: the program
// itself must ignore it to report the error.
void limit_file_size(QProcess& process, rlim_t bytes) {
  process.setChildProcessModifier([bytes] {
    const rlimit limit{bytes, bytes};
    setrlimit(RLIMIT_FSIZE, &limit);
  });
}

// What the child printed, once it ended by itself (calling `meanwhile` every 20 ms) with
// an exit code other than 0 and no crash; "FAILED: ..." when it did otherwise or ran for
// two minutes (then it is killed).
template <typename Meanwhile>
QString output_of_failed_run(QProcess& child, Meanwhile meanwhile) {
  QDeadlineTimer bound(120000);
  while (child.state() == QProcess::Running && !bound.hasExpired()) {
    meanwhile();
    QTest::qWait(20);
  }
  if (child.state() == QProcess::Running) {
    child.kill();
    child.waitForFinished();
    return "FAILED: the run went on for two minutes with files that cannot grow";
  }
  const QString output = QString::fromUtf8(child.readAll());
  if (child.exitStatus() != QProcess::NormalExit) return "FAILED: the run crashed: " + output;
  if (child.exitCode() == 0) return "FAILED: the run succeeded: " + output;
  return output;
}

}  // namespace

class TestVariateDiskFull : public QObject {
  Q_OBJECT

 private slots:
  void aProjectThatCannotGrowStopsTheRunAndKeepsItsDraws() {
    QTemporaryDir directory;
    const QString path = directory.filePath("full.variate");
    const Outcome first = run(eight_schools("50", "1") << "--project" << path, 120000);
    QVERIFY2(first.exit_code == 0, qPrintable(first.output));
    std::vector<store::ChainDraws> first_draws;
    {
      const store::Project project(path.toStdString());
      first_draws = project.draws(project.runs().front().id);
    }

    // Room for a few commits of the next run, in the file or in its log.
    const auto room = static_cast<rlim_t>(QFileInfo(path).size() + 256 * 1024);
    QProcess child;
    child.setProcessChannelMode(QProcess::MergedChannels);
    limit_file_size(child, room);
    child.start(VARIATE_EXECUTABLE, eight_schools("1000000", "2") << "--project" << path);
    QVERIFY(child.waitForStarted());
    int64_t seen_rows = 0;  // of the second run, committed while it ran
    const QString output = output_of_failed_run(child, [&] {
      const auto rows = ProjectFile(path).rows_by_run();
      if (rows.size() > 1) seen_rows = std::max(seen_rows, rows.rbegin()->second);
    });
    QVERIFY2(output.contains("error: project '" + path + "'"), qPrintable(output));
    QVERIFY2(output.contains("the file cannot grow"), qPrintable(output));
    QVERIFY2(output.contains("the run stopped"), qPrintable(output));
    // How many of the second run's draws this test saw committed depends on how often it
    // got the CPU while the run filled the room; the first run's draws are the ones that
    // must be kept whatever the timing (checked below).
    if (seen_rows == 0) qInfo("no draw of the second run was seen committed before the file was full");

    QCOMPARE(ProjectFile(path).integrity(), QString("ok"));
    const store::Project project(path.toStdString());
    const std::vector<store::RunInfo> runs = project.runs();
    QCOMPARE(runs.size(), size_t{2});
    // Failed with the reason when that last write finds room, interrupted otherwise.
    QVERIFY(runs[1].status == store::RunStatus::failed || runs[1].status == store::RunStatus::interrupted);
    // The second run's rows that reached the file before it was full: none when its first
    // commit did not fit.
    const auto rows = ProjectFile(path).rows_by_run();
    const int64_t stored = rows.count(runs[1].id) ? rows.at(runs[1].id) : 0;
    QVERIFY2(stored >= seen_rows,
             qPrintable(QString("%1 rows committed while it ran, %2 stored").arg(seen_rows).arg(stored)));
    QCOMPARE(read_back_draws(project, runs[1].id, stored), stored);
    const std::vector<store::ChainDraws> first_after = project.draws(runs[0].id);
    QCOMPARE(first_after.size(), first_draws.size());
    for (size_t c = 0; c < first_draws.size(); ++c) QVERIFY(first_after[c].values == first_draws[c].values);
    qInfo("the run stopped at %s bytes with %lld rows stored (%lld seen committed while it ran)",
          qPrintable(QString::number(room)), static_cast<long long>(stored), static_cast<long long>(seen_rows));
  }

  void chainFilesThatCannotGrowStopTheRun() {
    QTemporaryDir directory;
    const QString output_folder = directory.filePath("out");
    QProcess child;
    child.setProcessChannelMode(QProcess::MergedChannels);
    limit_file_size(child, 64 * 1024);
    child.start(VARIATE_EXECUTABLE, eight_schools("1000000", "3") << "--output" << output_folder);
    QVERIFY(child.waitForStarted());
    const QString output = output_of_failed_run(child, [] {});
    QVERIFY2(output.contains(QRegularExpression("error: " + QRegularExpression::escape(output_folder) +
                                                "/chain_[12].csv: write failed: File too large")),
             qPrintable(output));
    // What was written before is there: every chain's rows up to the limit.
    for (const QString chain : {"chain_1.csv", "chain_2.csv"}) {
      QVERIFY2(draw_lines(output_folder + "/" + chain) > 0, qPrintable(chain));
    }
  }
};

QTEST_GUILESS_MAIN(TestVariateDiskFull)
#include "tst_variate_disk_full.moc"
