// Numbers that are not numbers, in the data and in the log density. The data readers take
// CmdStan's "NaN", "Inf" and "-Inf" (and CSV's NA); binding then rejects every non-finite
// value of a declared input with the variable and the element named, as Variate has no
// missing values (Stan reads them and then cannot start its chains). A number too large for
// a double (1e999) is a located error of the file. A log density that is +inf or NaN at
// some points makes divergences there; one that is +inf everywhere is a clear error.
// Never a crash or a hang.

#include <QtTest/QtTest>

#include "tests/app/run_program.h"

using namespace app_test;

namespace {

const QByteArray kRegression =
    "data N: int\ndata x: real[N]\ndata y: real[N]\na ~ Normal(0, 10)\nb ~ Normal(0, 10)\ny ~ Normal(a + b * x, 1)\n";

Outcome sample(const QTemporaryDir& directory, const QByteArray& model, const QString& data_name,
               const QByteArray& data, const QStringList& extra = {}) {
  QFile model_file(directory.filePath("m.vmod"));
  if (!model_file.open(QIODevice::WriteOnly)) return {-2, "cannot write the model"};
  model_file.write(model);
  model_file.close();
  QStringList arguments{"sample", directory.filePath("m.vmod"), "--chains", "2", "--warmup", "200",
                        "--draws", "300", "--seed", "1", "--quiet"};
  if (!data_name.isEmpty()) {
    QFile data_file(directory.filePath(data_name));
    if (!data_file.open(QIODevice::WriteOnly)) return {-2, "cannot write the data"};
    data_file.write(data);
    data_file.close();
    arguments << "--data" << directory.filePath(data_name);
  }
  return run(arguments << extra, 120000);
}

}  // namespace

class TestVariateNumericFaults : public QObject {
  Q_OBJECT

 private slots:
  void nonFiniteDataIsRejectedAtBinding_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("expected");
    QTest::newRow("CSV NaN in the observed y") << "d.csv" << QByteArray("x,y\n1,2\n2,NaN\n3,4\n")
        << "m.vmod:3:6: error: data 'y' holds nan at element 2 (1-based, counting row by row): data must be finite";
    QTest::newRow("CSV NA in the covariate x") << "d.csv" << QByteArray("x,y\n1,2\n2,3\nNA,4\n")
        << "m.vmod:2:6: error: data 'x' holds nan at element 3 (1-based, counting row by row)";
    QTest::newRow("CSV Inf") << "d.csv" << QByteArray("x,y\nInf,2\n2,3\n3,4\n")
        << "m.vmod:2:6: error: data 'x' holds inf at element 1";
    QTest::newRow("JSON \"NaN\" in the covariate x") << "d.json"
        << QByteArray(R"({"N": 3, "x": [1, "NaN", 3], "y": [1, 2, 3]})")
        << "m.vmod:2:6: error: data 'x' holds nan at element 2";
    QTest::newRow("JSON \"-Inf\" in the observed y") << "d.json"
        << QByteArray(R"({"N": 3, "x": [1, 2, 3], "y": [1, 2, "-Inf"]})")
        << "m.vmod:3:6: error: data 'y' holds -inf at element 3";
    QTest::newRow("JSON \"Inf\" as the size N") << "d.json"
        << QByteArray(R"({"N": "Inf", "x": [1, 2, 3], "y": [1, 2, 3]})")
        << "m.vmod:1:6: error: data 'N' holds inf: data must be finite";
    QTest::newRow("JSON 1e999") << "d.json" << QByteArray("{\"N\": 3,\n \"x\": [1, 1e999, 3], \"y\": [1, 2, 3]}")
        << "d.json:2:11: the number 1e999 is beyond the range of a double";
  }
  void nonFiniteDataIsRejectedAtBinding() {
    QFETCH(QString, file);
    QFETCH(QByteArray, data);
    QFETCH(QString, expected);
    QTemporaryDir directory;
    const Outcome outcome = sample(directory, kRegression, file, data);
    QCOMPARE(outcome.exit_code, 1);  // not -1: no crash, no hang
    QVERIFY2(outcome.output.contains(expected), qPrintable(outcome.output));
  }

  void aDensityThatIsNotFiniteSomewhereDiverges_data() {
    QTest::addColumn<QByteArray>("model");
    QTest::addColumn<QString>("backend");
    for (const QString backend : {"tape", "torch"}) {
      QTest::addRow("+inf beyond 1, %s", qPrintable(backend))
          << QByteArray("x ~ Normal(0, 1)\ntarget += x > 1 ? 1e308 * 1e308 : 0\n") << backend;
      QTest::addRow("nan beyond 1, %s", qPrintable(backend))
          << QByteArray("x ~ Normal(0, 1)\ntarget += x > 1 ? log(-1 - x * x) : 0\n") << backend;
    }
  }
  void aDensityThatIsNotFiniteSomewhereDiverges() {
    QFETCH(QByteArray, model);
    QFETCH(QString, backend);
    QTemporaryDir directory;
    const QString output = directory.filePath("out");
    const Outcome outcome = sample(directory, model, "", {}, {"--backend", backend, "--output", output});
    QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
    QVERIFY2(outcome.output.contains("transitions ended with a divergence"), qPrintable(outcome.output));
    // Every draw is a point where the density is finite.
    for (const QString chain : {"chain_1.csv", "chain_2.csv"}) {
      int rows = 0;
      for (const QString& line : lines_of(output + "/" + chain)) {
        if (line.startsWith('#') || line.startsWith("lp__")) continue;
        const QStringList fields = line.split(',');
        QVERIFY2(fields.size() == 8, qPrintable(line));
        bool finite = false;
        QVERIFY2(std::isfinite(fields[0].toDouble(&finite)) && finite, qPrintable(line));  // lp__
        QVERIFY2(fields[7].toDouble() <= 1, qPrintable(line));  // x
        ++rows;
      }
      QCOMPARE(rows, 300);
    }
  }

  void aDensityThatIsInfiniteEverywhereIsAClearError() {
    QTemporaryDir directory;
    const Outcome outcome = sample(directory, "x ~ Normal(0, 1)\ntarget += 1e308 * 1e308\n", "", {});
    QCOMPARE(outcome.exit_code, 1);
    QVERIFY2(outcome.output.contains("error: chain 1: no initial point with a finite log density and gradient"),
             qPrintable(outcome.output));
  }
};

QTEST_GUILESS_MAIN(TestVariateNumericFaults)
#include "tst_variate_numeric_faults.moc"
