// Power cuts: `variate sample --project P` killed with SIGKILL at random moments, again and
// again into one project. After every kill the project opens, passes SQLite's
// integrity_check, keeps every draw committed before the kill (what this test saw
// committed while the run went on, and every earlier run's rows unchanged) and reads back
// the killed run's draws; the next run opens the file and records into it. A new project
// killed while it is being created either does not exist or opens.
//
// VARIATE_KILL_LOOPS sets the number of kills (20 by default, 200 for the full loop). The
// kill delays come from a generator seeded with VARIATE_KILL_SEED (1 by default), printed
// with each failure, so a failing schedule can be run again.

#include <random>

#include <QtTest/QtTest>

#include "tests/app/project_file_checks.h"
#include "tests/app/run_program.h"

namespace store = variate::store;

using namespace app_test;

namespace {

int environment_number(const char* name, int fallback) {
  bool ok = false;
  const int value = qEnvironmentVariableIntValue(name, &ok);
  return ok && value > 0 ? value : fallback;
}

QStringList long_run(const QString& project, int seed) {
  return {"sample", kEightSchools + "eight_schools.vmod", "--data", kEightSchools + "data.json",
          "--chains", "2", "--threads", "2", "--warmup", "20", "--draws", "1000000",
          "--seed", QString::number(seed), "--quiet", "--project", project};
}

// Waits (a bound, not a measurement) until `ready` holds or the child ends.
template <typename Ready>
bool wait_while_running(QProcess& child, Ready ready) {
  QDeadlineTimer bound(120000);
  while (child.state() == QProcess::Running && !bound.hasExpired()) {
    if (ready()) return true;
    QTest::qWait(10);
  }
  return false;
}

}  // namespace

class TestVariateKillLoop : public QObject {
  Q_OBJECT

 private slots:
  void everyCommittedDrawSurvivesRepeatedKills() {
    const int loops = environment_number("VARIATE_KILL_LOOPS", 20);
    const int seed = environment_number("VARIATE_KILL_SEED", 1);
    std::mt19937 schedule(static_cast<uint32_t>(seed));
    QTemporaryDir directory;
    const QString path = directory.filePath("killed.variate");
    std::map<int64_t, int64_t> committed;  // rows of each run, as last seen
    int64_t checked_draws = 0, mid_run_kills = 0;
    bool made = false;  // the project file exists
    for (int i = 0; i < loops; ++i) {
      // A third of the kills come at any moment from the start (opening the project,
      // saving the model, marking the last run interrupted), the rest while draws are
      // committed.
      const bool from_start = std::uniform_int_distribution<int>(0, 2)(schedule) == 0;
      const int delay_ms = std::uniform_int_distribution<int>(0, from_start ? 1500 : 600)(schedule);
      const QString where = QString("kill %1 of %2 (VARIATE_KILL_SEED=%3: %4 ms after %5)")
                                .arg(i + 1).arg(loops).arg(seed).arg(delay_ms)
                                .arg(from_start ? "the start" : "the run's first draws");
      const int64_t last_run = committed.empty() ? 0 : committed.rbegin()->first;

      QProcess child;
      child.setProcessChannelMode(QProcess::MergedChannels);
      child.start(VARIATE_EXECUTABLE, long_run(path, i + 1));
      QVERIFY2(child.waitForStarted(), qPrintable(where));
      int64_t seen_rows = 0;  // of the new run, committed while it ran
      if (!from_start) {
        const bool drawing = wait_while_running(child, [&] {
          if (!QFile::exists(path)) return false;
          const auto rows = ProjectFile(path).rows_by_run();
          if (rows.empty() || rows.rbegin()->first <= last_run) return false;
          seen_rows = rows.rbegin()->second;
          return true;
        });
        QVERIFY2(drawing, qPrintable(where + ": the run ended before its first draws: " + child.readAll()));
        ++mid_run_kills;
      }
      QTest::qWait(delay_ms);
      QVERIFY2(child.state() == QProcess::Running, qPrintable(where + ": the run ended by itself: " + child.readAll()));
      child.kill();  // SIGKILL, to this child's pid alone
      QVERIFY(child.waitForFinished(10000));
      QCOMPARE(child.exitStatus(), QProcess::CrashExit);

      if (!QFile::exists(path)) {
        QVERIFY2(from_start && !made, qPrintable(where + ": the project file is gone"));
        continue;  // killed before it made the project
      }
      made = true;
      QCOMPARE(ProjectFile(path).integrity(), QString("ok"));
      std::unique_ptr<store::Project> project;
      try {
        project = std::make_unique<store::Project>(path.toStdString());
      } catch (const std::exception& e) {
        QFAIL(qPrintable(where + ": the project does not open: " + e.what()));
      }
      ProjectFile file(path);
      const std::map<int64_t, int64_t> rows = file.rows_by_run();
      QVERIFY2(file.error().isEmpty(), qPrintable(file.error()));
      const auto rows_of = [&rows](int64_t run) { return rows.count(run) ? rows.at(run) : int64_t{0}; };
      for (const auto& [run, count] : committed) {
        QVERIFY2(rows_of(run) == count,
                 qPrintable(QString("%1: run %2 had %3 rows, now %4").arg(where).arg(run).arg(count).arg(rows_of(run))));
      }
      const std::vector<store::RunInfo> runs = project->runs();
      for (const store::RunInfo& run : runs) {
        QVERIFY2(run.status != store::RunStatus::running, qPrintable(where + ": a killed run is still running"));
        if (committed.count(run.id)) continue;  // read back when it was new
        const int64_t stored = rows_of(run.id);
        QVERIFY2(stored >= seen_rows, qPrintable(QString("%1: %2 rows committed before the kill, %3 stored")
                                                     .arg(where).arg(seen_rows).arg(stored)));
        const int64_t read = read_back_draws(*project, run.id, stored);
        QVERIFY2(read == stored, qPrintable(where + ": the killed run's draws do not read back"));
        checked_draws += read;
        committed[run.id] = stored;
      }
    }
    qInfo("%d kills (%lld while draws were committed), %zu runs, %lld committed draws read back, seed %d", loops,
          static_cast<long long>(mid_run_kills), committed.size(), static_cast<long long>(checked_draws), seed);
    QVERIFY(mid_run_kills > 0);

    // A program that reads projects reads the last killed run with draws after warmup.
    const store::Project project(path.toStdString());
    const std::vector<store::RunInfo> runs = project.runs();
    auto last = std::find_if(runs.rbegin(), runs.rend(), [&](const store::RunInfo& run) {
      const auto chains = project.draws(run.id);
      return !chains.empty() && std::all_of(chains.begin(), chains.end(),
                                            [](const store::ChainDraws& c) { return c.sampling_rows() > 0; });
    });
    QVERIFY2(last != runs.rend(), "no killed run has draws after warmup");
    const Outcome predicted = run({"predict", "--project", path, "--run", QString::number(last->id), "--output",
                                   directory.filePath("predicted"), "--seed", "1"},
                                  120000);
    QVERIFY2(predicted.exit_code == 0, qPrintable(predicted.output));
  }

  void aProjectKilledWhileItIsCreatedIsWholeOrAbsent() {
    const int seed = environment_number("VARIATE_KILL_SEED", 1);
    std::mt19937 schedule(static_cast<uint32_t>(seed));
    QTemporaryDir directory;
    // How long a run takes to make its project: the kills fall around that moment.
    qint64 creation_ms = 0;
    {
      const QString path = directory.filePath("timing.variate");
      QProcess child;
      child.start(VARIATE_EXECUTABLE, long_run(path, 1));
      QVERIFY(child.waitForStarted());
      QElapsedTimer timer;
      timer.start();
      QVERIFY2(wait_while_running(child, [&] { return QFile::exists(path); }), "the run made no project");
      creation_ms = timer.elapsed();
      child.kill();
      child.waitForFinished(10000);
    }
    int whole = 0, absent = 0;
    for (int i = 0; i < 16; ++i) {
      const QString path = directory.filePath(QString("new_%1.variate").arg(i));
      const int delay_ms = std::uniform_int_distribution<int>(std::max<int>(0, creation_ms - 40), creation_ms + 40)(schedule);
      QProcess child;
      child.start(VARIATE_EXECUTABLE, long_run(path, 1));
      QVERIFY(child.waitForStarted());
      QTest::qWait(delay_ms);
      child.kill();
      QVERIFY(child.waitForFinished(10000));
      if (!QFile::exists(path)) {
        ++absent;
        continue;
      }
      ++whole;
      QCOMPARE(ProjectFile(path).integrity(), QString("ok"));
      try {
        store::Project project(path.toStdString());
      } catch (const std::exception& e) {
        QFAIL(qPrintable(QString("killed %1 ms after the start (VARIATE_KILL_SEED=%2): %3").arg(delay_ms).arg(seed).arg(e.what())));
      }
    }
    qInfo("killed around the project's creation (%lld ms): %d whole, %d absent", static_cast<long long>(creation_ms),
          whole, absent);
  }
};

QTEST_GUILESS_MAIN(TestVariateKillLoop)
#include "tst_variate_kill_loop.moc"
