// `variate sample --project P.variate` as a user runs it: the run, its model text, data,
// configuration, draws and summary land in the project; a second run reuses the stored
// model version; a run killed with SIGKILL is found interrupted with every draw made up
// to a second before the kill; a file that is not a project is refused untouched.

#include <QtTest/QtTest>

#include <sqlite3.h>

#include "tests/app/run_program.h"
#include "engine/store/project.h"
#include "engine/store/stored_run_summary.h"

namespace store = variate::store;

using namespace app_test;

namespace {


QStringList sample_arguments(const QString& project, const QString& warmup, const QString& draws) {
  return {"sample", kEightSchools + "eight_schools.vmod", "--data", kEightSchools + "data.json",
          "--warmup", warmup, "--draws", draws, "--seed", "3", "--quiet", "--project", project};
}

std::string file_text(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll().toStdString() : std::string();
}

QJsonObject parameters_of(const std::string& json) {
  return QJsonDocument::fromJson(QByteArray::fromStdString(json)).object()["parameters"].toObject();
}

// Counts the data rows of a Stan CSV file as it grows (rows start with a number).
class CsvRowCounter {
 public:
  explicit CsvRowCounter(const QString& path) : file_(path) {}
  int64_t count() {
    if (!file_.isOpen() && !file_.open(QIODevice::ReadOnly)) return rows_;
    pending_ += file_.readAll();
    qsizetype start = 0;
    for (qsizetype end; (end = pending_.indexOf('\n', start)) >= 0; start = end + 1) {
      const char first = end > start ? pending_[start] : '\n';
      if ((first >= '0' && first <= '9') || first == '-') ++rows_;
    }
    pending_.remove(0, start);
    return rows_;
  }

 private:
  QFile file_;
  QByteArray pending_;
  int64_t rows_ = 0;
};

int64_t stored_blocks_rows(const std::string& path, store::Id run, int chain) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* s = nullptr;
  sqlite3_prepare_v2(db, "SELECT COALESCE(SUM(row_count), 0) FROM draw_blocks WHERE run_id = ? AND chain = ?", -1, &s, nullptr);
  sqlite3_bind_int64(s, 1, run);
  sqlite3_bind_int(s, 2, chain);
  const int64_t rows = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : -1;
  sqlite3_finalize(s);
  sqlite3_close(db);
  return rows;
}

}  // namespace

class TestVariateProject : public QObject {
  Q_OBJECT

 private slots:
  void recordsTheRunWithItsModelDataDrawsAndSummary() {
    QTemporaryDir directory;
    const QString project_path = directory.filePath("schools.variate");
    const Outcome first = run(sample_arguments(project_path, "150", "100")
                              << "--run-name" << "baseline" << "--summary-json" << directory.filePath("s.json"));
    QVERIFY2(first.exit_code == 0, qPrintable(first.output));
    const Outcome second = run(sample_arguments(project_path, "100", "50"));
    QVERIFY2(second.exit_code == 0, qPrintable(second.output));

    store::Project project(project_path.toStdString());
    const auto runs = project.runs();
    QCOMPARE(runs.size(), size_t{2});
    const store::RunInfo& run = runs[0];
    QCOMPARE(run.name, std::string("baseline"));
    QCOMPARE(runs[1].name, "run " + std::to_string(runs[1].id));
    QCOMPARE(run.status, store::RunStatus::finished);
    QCOMPARE(run.seed, uint64_t{3});
    QCOMPARE(run.chains, 4);
    const auto config = QJsonDocument::fromJson(QByteArray::fromStdString(run.config_json)).object();
    QCOMPARE(config["warmup"].toInt(), 150);
    QCOMPARE(config["max_depth"].toInt(), 10);
    // The same model text and data: one version and one data set serve both runs.
    QCOMPARE(runs[1].model_version_id, run.model_version_id);
    QCOMPARE(runs[1].data_set_id, run.data_set_id);
    const store::ModelVersion model = project.model_version(run.model_version_id);
    QCOMPARE(model.model_name, std::string("eight_schools"));
    QCOMPARE(model.text, file_text(kEightSchools + "eight_schools.vmod"));
    QCOMPARE(project.latest_model_version()->id, model.id);
    QCOMPARE(project.data_set(*run.data_set_id).json_text, file_text(kEightSchools + "data.json"));

    QCOMPARE(run.columns.size(), size_t{7 + 18});  // sampler, mu, tau, theta_trans[8], theta[8]
    for (const store::ChainDraws& chain : project.draws(run.id)) {
      QCOMPARE(chain.rows, size_t{250});
      QCOMPARE(chain.warmup_iterations, 150);
      QCOMPARE(chain.columns[7], std::string("mu"));
      // The project keeps warmup rows whole: their derived values are computed too
      // (theta.1 = theta_trans.1 * tau + mu), though the CSV files leave warmup out.
      const auto mu = chain.column("mu", true), tau = chain.column("tau", true);
      const auto theta_trans = chain.column("theta_trans.1", true), theta = chain.column("theta.1", true);
      for (size_t row = 0; row < chain.rows; ++row) {
        QVERIFY(std::abs(theta[row] - (theta_trans[row] * tau[row] + mu[row])) <= 1e-12 * (1 + std::abs(theta[row])));
      }
    }
    for (const store::ChainRecord& chain : project.chains(run.id)) {
      QVERIFY(chain.step_size && *chain.step_size > 0);
      QCOMPARE(chain.metric, std::string("diag_e"));
      QVERIFY(chain.ended && !chain.stopped_early);
    }
    // The stored summary is the one the run printed and wrote, and recomputing it from
    // the stored draws gives it again, digit for digit.
    const std::string written = file_text(directory.filePath("s.json"));
    QCOMPARE(*project.diagnostics_json(run.id), written);
    const store::StoredRunSummary summary = store::summarize_run(project, run.id);
    QCOMPARE(parameters_of(summary.json()), parameters_of(written));
    QCOMPARE(summary.json(), written);  // the sampler totals too
    QVERIFY2(first.output.contains(QString::fromStdString(summary.table())), qPrintable(first.output));
  }

  void aKilledRunIsInterruptedWithItsDrawsUpToASecondBeforeTheKill() {
    QTemporaryDir directory;
    const QString project_path = directory.filePath("killed.variate");
    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(VARIATE_EXECUTABLE, sample_arguments(project_path, "200", "1000000")
                                        << "--output" << directory.path() << "--save-warmup" << "--threads" << "4");
    QVERIFY(child.waitForStarted());
    // The CSV files are flushed batch by batch as the draws reach the observers, the same
    // moment the recorder buffers them: their row counts tell when each draw was made.
    std::vector<std::unique_ptr<CsvRowCounter>> counters;
    for (int chain = 1; chain <= 4; ++chain) {
      counters.push_back(std::make_unique<CsvRowCounter>(directory.filePath(QString("chain_%1.csv").arg(chain))));
    }
    struct Sample {
      QDateTime at;
      std::vector<int64_t> rows;
    };
    std::vector<Sample> samples;
    QDateTime first_rows;
    bool checked_live = false;
    while (child.state() == QProcess::Running) {
      Sample sample;
      for (auto& counter : counters) sample.rows.push_back(counter->count());
      sample.at = QDateTime::currentDateTimeUtc();  // after counting: rows made before it
      samples.push_back(sample);
      if (!first_rows.isValid() && *std::min_element(sample.rows.begin(), sample.rows.end()) > 0) {
        first_rows = sample.at;
      }
      if (first_rows.isValid() && !checked_live) {
        // Opened while the writer lives: its run is running, not interrupted.
        store::Project live(project_path.toStdString());
        QCOMPARE(live.runs().back().status, store::RunStatus::running);
        checked_live = true;
      }
      if (first_rows.isValid() && first_rows.msecsTo(sample.at) > 2500) break;
      QTest::qWait(50);
    }
    QVERIFY2(child.state() == QProcess::Running, "the run ended before it could be killed");
    child.kill();  // SIGKILL
    const QDateTime killed = QDateTime::currentDateTimeUtc();
    QVERIFY(child.waitForFinished());
    QCOMPARE(child.exitStatus(), QProcess::CrashExit);

    // The rows every chain had made one second before the kill.
    const Sample* before = nullptr;
    for (const auto& sample : samples) {
      if (sample.at.msecsTo(killed) >= 1000) before = &sample;
    }
    QVERIFY(before != nullptr);

    const std::string path = project_path.toStdString();
    store::Project project(path);
    QCOMPARE(project.interrupted_at_open().size(), size_t{1});
    const store::RunInfo run = project.run(project.interrupted_at_open()[0]);
    QCOMPARE(run.status, store::RunStatus::interrupted);
    const auto chains = project.draws(run.id);
    QCOMPARE(chains.size(), size_t{4});
    int64_t lost = 0, made_at_kill = 0;
    for (const store::ChainDraws& chain : chains) {
      const int64_t made = before->rows[chain.chain];
      QVERIFY2(static_cast<int64_t>(chain.rows) >= made,
               qPrintable(QString("chain %1: %2 rows stored, %3 made a second before the kill")
                              .arg(chain.chain + 1).arg(chain.rows).arg(made)));
      // Internally consistent: the blocks tile the table, and every row is a real draw.
      QCOMPARE(static_cast<int64_t>(chain.rows), stored_blocks_rows(path, run.id, chain.chain));
      QCOMPARE(chain.warmup_iterations, 200);
      for (size_t row = 0; row < chain.rows; ++row) {
        QVERIFY(chain.at(row, 4) >= 1);  // n_leapfrog__
        QVERIFY(std::isfinite(chain.at(row, 0)));
      }
      const int64_t at_kill = counters[chain.chain]->count();
      lost += at_kill - static_cast<int64_t>(chain.rows);
      made_at_kill += at_kill;
    }
    const double rate = made_at_kill / (1e-3 * std::max<qint64>(1, first_rows.msecsTo(killed)));
    qInfo("killed after %lld ms of draws at ~%.0f rows/s (4 chains); %lld rows in the CSV files at "
          "the kill were not committed yet: ~%.0f ms of sampling",
          static_cast<long long>(first_rows.msecsTo(killed)), rate, static_cast<long long>(lost),
          1000 * lost / rate);
  }

  // A run's name is never a number alone (numbers name runs by id): `--run-name 1` is
  // refused before the run starts. A project written before that rule may hold a run
  // named "1" beside run 1: `--run 1` is then refused as ambiguous, naming both.
  void aRunNamedAsAnotherRunsIdIsAmbiguous() {
    QTemporaryDir directory;
    const QString project = directory.filePath("p.variate");
    QCOMPARE(run(sample_arguments(project, "30", "30") << "--run-name" << "first").exit_code, 0);
    const Outcome numeric = run(sample_arguments(project, "30", "30") << "--run-name" << "1");
    QCOMPARE(numeric.exit_code, 1);
    QVERIFY2(numeric.output.contains("a run's name cannot be a number alone ('1')"), qPrintable(numeric.output));
    QCOMPARE(run(sample_arguments(project, "30", "30") << "--run-name" << "second").exit_code, 0);
    sqlite3* db = nullptr;  // as a Variate before the rule could name it
    QCOMPARE(sqlite3_open(project.toUtf8().constData(), &db), SQLITE_OK);
    QCOMPARE(sqlite3_exec(db, "UPDATE runs SET name = '1' WHERE id = 2", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    const Outcome ambiguous = run({"predict", "--project", project, "--run", "1", "--output", directory.filePath("p")});
    QVERIFY(ambiguous.exit_code != 0);
    QVERIFY2(ambiguous.output.contains("'1' is both the id of run 'first' and the name of run 2: give 'first' or 2"),
             qPrintable(ambiguous.output));
    QCOMPARE(run({"predict", "--project", project, "--run", "2", "--output", directory.filePath("p")}).exit_code, 0);
  }

  void aFileThatIsNotAProjectIsRefusedUntouched() {
    QTemporaryDir directory;
    const QString path = directory.filePath("notes.variate");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("not a project\n");
    file.close();
    const Outcome outcome = run(sample_arguments(path, "10", "10"));
    QCOMPARE(outcome.exit_code, 1);
    QVERIFY2(outcome.output.contains("error: project '" + path + "': not a SQLite database"), qPrintable(outcome.output));
    QCOMPARE(file_text(path), std::string("not a project\n"));
  }
};

QTEST_GUILESS_MAIN(TestVariateProject)
#include "tst_variate_project.moc"
