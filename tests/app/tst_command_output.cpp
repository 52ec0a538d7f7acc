// What each command prints (its tables, headers and traces), held against fixtures of the
// exact text in tests/data/output: NAME.out for standard output, NAME.err for standard
// error (empty: nothing). A format bug (a count through a double format, an unsigned wrap,
// an inf standard deviation) fails here. The steps run in order in one folder: the later
// ones read the draws the earlier ones wrote.
//
// To see what a command prints now, set VARIATE_GOLDEN_WRITE=DIR: each step's output is
// written there as NAME.out and NAME.err, for comparing with (not copying over) a fixture.

#include <QtTest/QtTest>

#include "golden_output.h"
#include "run_program.h"

namespace {

const QString kFixtures = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/output/");

const char* kParams = R"({"mu": 1, "tau": 2, "theta_trans": [0, 0, 0, 0, 0, 0, 0, 0]})";
const char* kBadModel = "mu ~ Normal(0, 1)\ny ~ Normal(mu, sigma)\n";

struct Run {
  int exit_code = -1;
  QString out;
  QString err;
};

Run run_variate(const QStringList& arguments, const QString& directory) {
  QProcess process;
  process.setWorkingDirectory(directory);
  process.start(qEnvironmentVariable("VARIATE_PROGRAM"), arguments);
  if (!process.waitForFinished(300000)) {
    process.kill();
    process.waitForFinished();
    return {};
  }
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
          QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
}

QString read_text(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return "cannot open " + path;
  return QString::fromUtf8(file.readAll());
}

void write_text(const QString& path, const QString& text) {
  QFile file(path);
  QVERIFY2(file.open(QIODevice::WriteOnly), qPrintable(path));
  file.write(text.toUtf8());
}

}  // namespace

class TestCommandOutput : public QObject {
  Q_OBJECT

  QTemporaryDir folder_;

 private slots:
  void initTestCase() {
    QVERIFY(folder_.isValid());
    for (const char* file : {"eight_schools.vmod", "data.json"}) {
      QVERIFY(QFile::copy(app_test::kEightSchools + file, folder_.filePath(file)));
    }
    write_text(folder_.filePath("params.json"), kParams);
    write_text(folder_.filePath("bad.vmod"), kBadModel);
  }

  void command_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exit_code");
    const QStringList model = {"eight_schools.vmod", "--data", "data.json"};
    const QStringList chains = {"out/chain_1.csv", "out/chain_2.csv"};
    const QStringList predicted = {"pred/chain_1.csv", "pred/chain_2.csv"};
    QTest::newRow("check") << QStringList{"check"} + model << 0;
    QTest::newRow("check_error") << QStringList{"check", "bad.vmod"} << 1;
    QTest::newRow("logp") << QStringList{"logp"} + model + QStringList{"--params", "params.json"} << 0;
    QTest::newRow("sample") << QStringList{"sample"} + model +
                                   QStringList{"--seed", "1", "--chains", "2", "--warmup", "200", "--draws", "200",
                                               "--threads", "1", "--output", "out"}
                            << 0;
    QTest::newRow("summary") << QStringList{"summary"} + chains << 0;
    QTest::newRow("predict") << QStringList{"predict", "eight_schools.vmod"} + chains +
                                    QStringList{"--data", "data.json", "--output", "pred"}
                             << 0;
    // The predictive columns (y_rep, log_lik) are left out of the table, and named.
    QTest::newRow("summary_predicted") << QStringList{"summary"} + predicted << 0;
    QTest::newRow("loo") << QStringList{"loo"} + predicted << 0;
    QTest::newRow("compare") << QStringList{"compare", "a=" + predicted.join(','), "b=" + predicted.join(',')} << 0;
    QTest::newRow("optimize") << QStringList{"optimize"} + model + QStringList{"--seed", "1"} << 0;
    QTest::newRow("optimize_laplace") << QStringList{"optimize"} + model +
                                             QStringList{"--seed", "1", "--laplace-draws", "200"}
                                      << 0;
    QTest::newRow("pathfinder") << QStringList{"pathfinder"} + model + QStringList{"--seed", "1"} << 0;
    QTest::newRow("fit") << QStringList{"fit"} + model + QStringList{"--seed", "1"} << 0;
    QTest::newRow("sbc") << QStringList{"sbc"} + model + QStringList{"--replications", "10",  "--seed",   "1",
                                                                     "--chains",       "2",   "--warmup", "200",
                                                                     "--draws",        "200", "--thin",   "4",
                                                                     "--parallel",     "1"}
                         << 0;
    QTest::newRow("export") << QStringList{"export", "eight_schools.vmod", "--cpp", "exported"} << 0;
  }
  void command() {
    QFETCH(QStringList, arguments);
    QFETCH(int, exit_code);
    const QString name = QTest::currentDataTag();
    const Run run = run_variate(arguments, folder_.path());
    if (const QString dump = qEnvironmentVariable("VARIATE_GOLDEN_WRITE"); !dump.isEmpty()) {
      QDir().mkpath(dump);
      write_text(dump + "/" + name + ".out", run.out);
      write_text(dump + "/" + name + ".err", run.err);
    }
    QVERIFY2(run.exit_code == exit_code, qPrintable(run.out + run.err));
    const QString out = app_test::golden_mismatch(read_text(kFixtures + name + ".out"), run.out);
    QVERIFY2(out.isEmpty(), qPrintable(name + ".out: " + out));
    const QString err = app_test::golden_mismatch(read_text(kFixtures + name + ".err"), run.err);
    QVERIFY2(err.isEmpty(), qPrintable(name + ".err: " + err));
  }

  // The matcher itself: garbage in a count or a number fails it.
  void matcher_refuses_garbage_data() {
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QString>("output");
    QTest::addColumn<bool>("matches");
    const QString header = "2 chains, each with {int} warmup and {int} draws";
    QTest::newRow("counts") << header << "2 chains, each with 200 warmup and 200 draws" << true;
    QTest::newRow("wrapped count") << header << "2 chains, each with 200 warmup and 18446744073709551416 draws"
                                   << false;
    QTest::newRow("negative count") << "{int} evaluations" << "-1359762896 evaluations" << false;
    QTest::newRow("table") << "mu  {real}  {real}" << "mu     4.49   0.182" << true;
    QTest::newRow("inf") << "mu  {real}  {real}" << "mu     4.49   inf" << false;
    QTest::newRow("nan") << "mu  {real}" << "mu  nan" << false;
    QTest::newRow("trace") << "head\n...\ntail" << "head\n1\n2\ntail" << true;
    QTest::newRow("no trace") << "head\n...\ntail" << "head\ntail" << true;
    QTest::newRow("repeat") << "head\n{repeat} {int}  {real}\ntail" << "head\n10  0.5\n20  0.25\ntail" << true;
    QTest::newRow("repeat of garbage") << "head\n{repeat} {int}  {real}\ntail" << "head\n10  0.5\n-2109090352  0.25\ntail"
                                       << false;
    QTest::newRow("missing line") << "head\ntail" << "head" << false;
    QTest::newRow("extra line") << "head" << "head\ntail" << false;
  }
  void matcher_refuses_garbage() {
    QFETCH(QString, fixture);
    QFETCH(QString, output);
    QFETCH(bool, matches);
    QCOMPARE(app_test::golden_mismatch(fixture, output).isEmpty(), matches);
  }
};

QTEST_GUILESS_MAIN(TestCommandOutput)
#include "tst_command_output.moc"
