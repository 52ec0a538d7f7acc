// `variate sbc` as a user runs it: 200 replications of the non-centered eight schools and
// of a logistic regression do not reject uniformity at 1% for any quantity; a planted
// mismatch (data simulated with a grand mean three times as spread) and a broken sampler
// (tree depth 1, 100 warmup iterations) are rejected; the ranks are the same for a seed on
// one thread, two, and two processes; a run recorded in a project and killed resumes to the
// same ranks; models it cannot simulate are refused, saying why. VARIATE_SBC_REPLICATIONS
// sets the calibrated runs' replications (default 200).

#include <csignal>

#include <sqlite3.h>

#include <QtTest/QtTest>

#include "tests/app/run_program.h"

using namespace app_test;

namespace {

const QString kSbc = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/sbc/");

Outcome variate(const QStringList& arguments) { return run_program(VARIATE_EXECUTABLE, arguments, 1200000); }

QStringList model(const QString& name) { return {kSbc + name + ".vmod", "--data", kSbc + name + ".json"}; }

// Each quantity's verdict in a summary document, by name.
QMap<QString, bool> verdicts(const QJsonObject& summary) {
  QMap<QString, bool> uniform;
  for (const auto& q : summary["sbc"].toObject()["quantities"].toArray()) {
    uniform.insert(q.toObject()["name"].toString(), q.toObject()["uniform"].toBool());
  }
  return uniform;
}

// A value read from a project with SQLite itself, as another program would.
int64_t query_int(const QString& path, const char* sql) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    return 0;
  }
  sqlite3_busy_timeout(db, 5000);
  sqlite3_stmt* statement = nullptr;
  int64_t value = 0;
  if (sqlite3_prepare_v2(db, sql, -1, &statement, nullptr) == SQLITE_OK && sqlite3_step(statement) == SQLITE_ROW) {
    value = sqlite3_column_int64(statement, 0);
  }
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return value;
}

QString query_text(const QString& path, const char* sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* statement = nullptr;
  QString value;
  if (sqlite3_prepare_v2(db, sql, -1, &statement, nullptr) == SQLITE_OK && sqlite3_step(statement) == SQLITE_ROW) {
    value = QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0)));
  }
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return value;
}

}  // namespace

class TestVariateSbc : public QObject {
  Q_OBJECT

 private slots:
  void calibratedFitsPass_data() {
    QTest::addColumn<QString>("name");
    QTest::newRow("eight schools") << "eight_schools";
    QTest::newRow("logistic regression") << "logistic";
  }
  void calibratedFitsPass() {
    QFETCH(QString, name);
    const int replications = qEnvironmentVariableIsSet("VARIATE_SBC_REPLICATIONS")
                                 ? qEnvironmentVariableIntValue("VARIATE_SBC_REPLICATIONS")
                                 : 200;
    QTemporaryDir out;
    const Outcome r = variate(QStringList{"sbc"} + model(name) +
                              QStringList{"--replications", QString::number(replications), "--seed", "1", "--quiet",
                                          "--output", out.path(), "--summary-json", out.filePath("s.json")});
    QVERIFY2(r.exit_code == 0, qPrintable(r.output));
    qInfo("%s", qPrintable(r.output));
    const QJsonObject summary = read_json(out.filePath("s.json"));
    const QMap<QString, bool> uniform = verdicts(summary);
    QVERIFY(uniform.size() >= 3);
    for (auto it = uniform.begin(); it != uniform.end(); ++it) QVERIFY2(it.value(), qPrintable(it.key()));
    QVERIFY(r.output.contains("no sign of miscalibration"));
    // ranks.csv: a header and one row per replication, each rank within 0 ... max_rank.
    const QStringList rows = lines_of(out.filePath("ranks.csv"));
    QCOMPARE(rows.size(), replications + 1);
    QVERIFY(rows[0].startsWith("replication,seed,divergences,max_rhat,failed,"));
    const int max_rank = summary["sbc"].toObject()["max_rank"].toInt();
    QCOMPARE(max_rank, 400);  // 4 chains of 1000 draws, every 10th
    for (int i = 1; i < rows.size(); ++i) {
      const QStringList cells = rows[i].split(',');
      QCOMPARE(cells.size(), rows[0].split(',').size());
      for (int c = 5; c < cells.size(); ++c) QVERIFY(cells[c].toInt() >= 0 && cells[c].toInt() <= max_rank);
    }
  }

  void plantedMismatchesAreRejected() {
    QTemporaryDir out;
    const Outcome wide =
        variate(QStringList{"sbc"} + model("eight_schools") +
                QStringList{"--generator", kSbc + "eight_schools_wide_mu.vmod", "--replications", "100", "--seed", "2",
                            "--quiet", "--summary-json", out.filePath("wide.json")});
    QVERIFY2(wide.exit_code == 0, qPrintable(wide.output));
    QVERIFY2(!verdicts(read_json(out.filePath("wide.json")))["mu"], qPrintable(wide.output));
    QVERIFY(wide.output.contains("Data simulated from"));
    QVERIFY(wide.output.contains("depart from uniform at 1%"));

    // A generator without the fitted model's parameters is refused before any fit.
    QFile other(out.filePath("other.vmod"));
    QVERIFY(other.open(QIODevice::WriteOnly));
    other.write("data J: int\ndata y: real[J]\ndata sigma: real[J]\nmu ~ Normal(0, 5)\ny ~ Normal(mu, sigma)\n");
    other.close();
    const Outcome unlike = variate(QStringList{"sbc"} + model("eight_schools") +
                                   QStringList{"--generator", out.filePath("other.vmod"), "--replications", "2"});
    QCOMPARE(unlike.exit_code, 1);
    QVERIFY2(unlike.output.contains("other.vmod has no 'tau', which"), qPrintable(unlike.output));

    const Outcome broken = variate(QStringList{"sbc"} + model("eight_schools") +
                                   QStringList{"--max-depth", "1", "--warmup", "100", "--replications", "100", "--seed",
                                               "2", "--quiet", "--summary-json", out.filePath("broken.json")});
    QVERIFY2(broken.exit_code == 0, qPrintable(broken.output));
    const QMap<QString, bool> uniform = verdicts(read_json(out.filePath("broken.json")));
    QVERIFY2(uniform.values().contains(false), qPrintable(broken.output));
  }

  // One thread, two threads, two processes (the second started by the first, on
  // 127.0.0.1): the same ranks for a seed.
  void ranksDoNotDependOnWhatRunsThem() {
    QTemporaryDir out;
    const QList<QStringList> ways = {{"--parallel", "1"}, {"--parallel", "2"}, {"--nproc", "2", "--parallel", "1"}};
    for (int w = 0; w < ways.size(); ++w) {
      const Outcome r = variate(
          QStringList{"sbc"} + model("logistic") +
          QStringList{"--replications", "9", "--seed", "3", "--quiet", "--output", out.filePath(QString::number(w))} +
          ways[w]);
      QVERIFY2(r.exit_code == 0, qPrintable(r.output));
      if (ways[w].contains("--nproc")) QVERIFY2(r.output.contains("shared by 2 processes"), qPrintable(r.output));
    }
    const QStringList one = lines_of(out.filePath("0/ranks.csv"));
    QCOMPARE(one.size(), 10);
    QCOMPARE(lines_of(out.filePath("1/ranks.csv")), one);
    QCOMPARE(lines_of(out.filePath("2/ranks.csv")), one);
  }

  // --project stores each replication as it ends: killed (SIGKILL, by its PID) part way,
  // the run continues with --resume, fitting only those it lacks, to the ranks of a run
  // never killed.
  void aKilledProjectRunResumesWithEveryReplicationOnce() {
    QTemporaryDir out;
    const QStringList common =
        QStringList{"sbc"} + model("logistic") + QStringList{"--replications", "30", "--seed", "4"};
    const Outcome whole = variate(common + QStringList{"--quiet", "--output", out.filePath("whole")});
    QVERIFY2(whole.exit_code == 0, qPrintable(whole.output));

    const QString project = out.filePath("p.variate");
    QProcess killed;
    killed.setProcessChannelMode(QProcess::MergedChannels);
    killed.start(VARIATE_EXECUTABLE, common + QStringList{"--project", project, "--parallel", "1"});
    QVERIFY(killed.waitForStarted(30000));
    QElapsedTimer clock;
    clock.start();
    int stored = 0;
    while (stored < 5 && clock.elapsed() < 120000 && killed.state() == QProcess::Running) {
      killed.waitForReadyRead(100);
      stored = query_int(project, "SELECT COUNT(*) FROM sbc_replications");
    }
    QVERIFY2(stored >= 5 && stored < 30, qPrintable(QString::number(stored) + " stored; " + killed.readAll()));
    ::kill(static_cast<pid_t>(killed.processId()), SIGKILL);
    QVERIFY(killed.waitForFinished(30000));
    QCOMPARE(killed.exitStatus(), QProcess::CrashExit);

    const Outcome resumed =
        variate(common + QStringList{"--project", project, "--resume", "1", "--output", out.filePath("resumed")});
    QVERIFY2(resumed.exit_code == 0, qPrintable(resumed.output));
    QCOMPARE(query_int(project, "SELECT COUNT(DISTINCT replication) FROM sbc_replications"), int64_t{30});
    QCOMPARE(query_int(project, "SELECT COUNT(*) FROM sbc_replications"), int64_t{30});
    QCOMPARE(query_text(project, "SELECT status FROM runs WHERE id = 1"), QString("finished"));
    QCOMPARE(lines_of(out.filePath("resumed/ranks.csv")), lines_of(out.filePath("whole/ranks.csv")));
    // Continued with another model, or other settings, it would mix two calibrations: refused.
    const Outcome other = variate(QStringList{"sbc"} + model("eight_schools") +
                                  QStringList{"--replications", "30", "--project", project, "--resume", "1"});
    QCOMPARE(other.exit_code, 1);
    QVERIFY2(other.output.contains("ranked other quantities"), qPrintable(other.output));
    const Outcome thinner = variate(common + QStringList{"--project", project, "--resume", "1", "--thin", "5"});
    QCOMPARE(thinner.exit_code, 1);
    QVERIFY2(thinner.output.contains("cannot be continued with --thin 5: it was made with 10"),
             qPrintable(thinner.output));
    // More replications go on from those stored: the first 30 as they were.
    const Outcome more = variate(common.mid(0, common.size() - 4) +
                                 QStringList{"--replications", "36", "--seed", "4", "--project", project, "--resume",
                                             "1", "--quiet", "--output", out.filePath("more")});
    QVERIFY2(more.exit_code == 0, qPrintable(more.output));
    QCOMPARE(query_int(project, "SELECT COUNT(*) FROM sbc_replications"), int64_t{36});
    QCOMPARE(lines_of(out.filePath("more/ranks.csv")).mid(0, 31), lines_of(out.filePath("whole/ranks.csv")));
  }

  void modelsItCannotSimulateAreRefused_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("data");
    QTest::addColumn<QString>("message");
    QTest::newRow("target +=") << "mu ~ Normal(0, 1)\ntarget += -0.5 * mu * mu\n"
                               << "{}"
                               << "adds to the log density without a distribution to draw from";
    QTest::newRow("reads its data") << "data T: int\ndata y: real[T]\nphi ~ Normal(0, 1)\n"
                                       "nu[1] = 0\nnu[t] = phi * y[t - 1] for t in 2:T\ny ~ Normal(nu, 1)\n"
                                    << R"({"T": 3, "y": [0.5, 1.0, 0.2]})"
                                    << "'nu' reads the data of 'y'";
    QTest::newRow("improper prior") << "data y: real\nmu ~ Flat()\ny ~ Normal(mu, 1)\n"
                                    << R"({"y": 0.3})"
                                    << "cannot draw 'mu' from its prior";
  }
  void modelsItCannotSimulateAreRefused() {
    QFETCH(QString, text);
    QFETCH(QString, data);
    QFETCH(QString, message);
    QTemporaryDir dir;
    for (const auto& [name, content] : {std::pair{QString("m.vmod"), text}, std::pair{QString("d.json"), data}}) {
      QFile file(dir.filePath(name));
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(content.toUtf8());
    }
    const Outcome r = variate({"sbc", dir.filePath("m.vmod"), "--data", dir.filePath("d.json"), "--replications", "2"});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.output.contains(message), qPrintable(r.output));
  }
};

QTEST_GUILESS_MAIN(TestVariateSbc)
#include "tst_variate_sbc.moc"
