// Two `variate sample --project P` at once, into one project: both record their runs
// whole, whether the file exists or the two create it together; afterwards it passes
// integrity_check and holds every draw of both runs.

#include <QtTest/QtTest>

#include "tests/app/project_file_checks.h"
#include "tests/app/run_program.h"

namespace store = variate::store;

using namespace app_test;

class TestVariateTwoWriters : public QObject {
  Q_OBJECT

 private slots:
  void twoRunsRecordIntoOneProjectAtOnce() {
    QTemporaryDir directory;
    const QString path = directory.filePath("shared.variate");
    constexpr int kWarmup = 100, kDraws = 3000, kChains = 2;
    // Round 1 creates the file from both processes; rounds 2 and 3 write into it.
    for (int round = 1; round <= 3; ++round) {
      QProcess writers[2];
      for (int w = 0; w < 2; ++w) {
        writers[w].setProcessChannelMode(QProcess::MergedChannels);
        writers[w].start(VARIATE_EXECUTABLE,
                         {"sample", kEightSchools + "eight_schools.vmod", "--data", kEightSchools + "data.json",
                          "--chains", QString::number(kChains), "--threads", "1", "--warmup", QString::number(kWarmup),
                          "--draws", QString::number(kDraws), "--seed", QString::number(10 * round + w), "--quiet",
                          "--project", path, "--run-name", QString("round %1, writer %2").arg(round).arg(w + 1)});
      }
      for (QProcess& writer : writers) {
        QVERIFY(writer.waitForStarted());
        if (!writer.waitForFinished(180000)) {
          writers[0].kill();
          writers[1].kill();
          QFAIL(qPrintable(QString("round %1: a writer did not finish within three minutes").arg(round)));
        }
        QVERIFY2(writer.exitStatus() == QProcess::NormalExit && writer.exitCode() == 0,
                 qPrintable(QString("round %1: %2").arg(round).arg(QString::fromUtf8(writer.readAll()))));
      }
    }

    QCOMPARE(ProjectFile(path).integrity(), QString("ok"));
    const store::Project project(path.toStdString());
    const std::vector<store::RunInfo> runs = project.runs();
    QCOMPARE(runs.size(), size_t{6});
    QCOMPARE(project.model_versions("eight_schools").size(), size_t{1});  // one version serves all six
    const auto rows = ProjectFile(path).rows_by_run();
    for (const store::RunInfo& run : runs) {
      QCOMPARE(run.status, store::RunStatus::finished);
      QCOMPARE(rows.at(run.id), int64_t{kChains * (kWarmup + kDraws)});
      QCOMPARE(read_back_draws(project, run.id, rows.at(run.id)), rows.at(run.id));
    }
    // No leftover of making the file beside it.
    QCOMPARE(QDir(directory.path()).entryList(QDir::Files | QDir::Hidden).filter(".new-"), QStringList());
  }
};

QTEST_GUILESS_MAIN(TestVariateTwoWriters)
#include "tst_variate_two_writers.moc"
