// Bad input a user can give `variate check` and `variate logp`, and bad options of
// `variate sample`: each gets a clear, located message and a non-zero exit, never a crash
// or a hang.

#include <QtTest/QtTest>

namespace {

const char* kData =
    R"({"N": 3, "x": [1, 2, 3], "z": [1, 2, 3, 4], "k": [1, -2, 3], "s": -1, "y": [1, 2, 3, 4],)"
    R"( "i": 2.5, "X": [[1, 2], [3, 4], [5, 6]]})";

struct Outcome {
  bool finished;
  bool crashed;
  int exit_code;
  QString output;
};

Outcome run(const QStringList& arguments, const QString& directory) {
  QProcess process;
  process.setWorkingDirectory(directory);
  process.setProcessChannelMode(QProcess::MergedChannels);
  process.start(VARIATE_EXECUTABLE, arguments);
  const bool finished = process.waitForFinished(60000);
  if (!finished) process.kill();
  return {finished, process.exitStatus() == QProcess::CrashExit, process.exitCode(),
          QString::fromUtf8(process.readAll())};
}

void write(const QString& path, const QByteArray& bytes) {
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write(bytes);
}

}  // namespace

class TestVariateErrors : public QObject {
  Q_OBJECT

 private slots:
  void checkReportsErrors_data() {
    QTest::addColumn<QByteArray>("model");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown distribution") << QByteArray("mu ~ Normall(0, 5)\n")
        << "m.vmod:1:6: error: unknown distribution 'Normall'; did you mean 'Normal'?";
    QTest::newRow("wrong argument count") << QByteArray("mu ~ Normal(0)\n")
        << "m.vmod:1:6: error: Normal takes 2 arguments (Normal(mu, sigma)), got 1";
    QTest::newRow("wrong argument name") << QByteArray("data k: int[3]\nk ~ Poisson(lograte = 1)\n")
        << "m.vmod:2:13: error: Poisson has no argument named 'lograte'; expected Poisson(rate | log_rate =)";
    QTest::newRow("undefined name") << QByteArray("y ~ Normal(mu, 1)\n")
        << "m.vmod:1:12: error: undefined name 'mu'";
    QTest::newRow("misspelt name") << QByteArray("sigma ~ HalfNormal(1)\ny ~ Normal(0, sigm)\n")
        << "m.vmod:2:15: error: undefined name 'sigm'; did you mean 'sigma'?";
    QTest::newRow("cycle") << QByteArray("a ~ Normal(b, 1)\nb = a * 2\n")
        << "m.vmod:1:1: error: cycle in the model: a -> b -> a";
    QTest::newRow("self reference") << QByteArray("x ~ Normal(x, 1)\n")
        << "m.vmod:1:1: error: cycle in the model: x -> x";
    QTest::newRow("shape mismatch") << QByteArray("data x: real[3]\ndata z: real[4]\nw = x + z\nq ~ Normal(w, 1)\n")
        << "m.vmod:3:5: error: shapes [3] and [4] do not broadcast in 'x + z'";
    QTest::newRow("matrix product sizes") << QByteArray("data X: real[3, 2]\ndata x: real[3]\nq ~ Normal(X @ x, 1)\n")
        << "m.vmod:3:12: error: '@' needs matching inner sizes, got shapes [3, 2] and [3]";
    QTest::newRow("index out of range") << QByteArray("data x: real[3]\nmu ~ Normal(x[5], 1)\n")
        << "m.vmod:2:15: error: index 5 is out of bounds for 'x', whose dimension 1 has size 3";
    QTest::newRow("non-integer index") << QByteArray("data x: real[3]\nmu ~ Normal(x[1.5], 1)\n")
        << "m.vmod:2:15: error: indices must be integers from the data, but '1.5' is real-valued";
    QTest::newRow("index from a parameter") << QByteArray("data x: real[3]\nmu ~ Normal(0, 1)\nm ~ Normal(x[mu], 1)\n")
        << "m.vmod:3:14: error: indices must come from the data, but 'mu' is a latent variable";
    QTest::newRow("size from a parameter") << QByteArray("mu ~ Normal(0, 1)\ntheta[mu] ~ Normal(0, 1)\n")
        << "m.vmod:2:7: error: sizes must come from the data, but 'mu' is a latent variable";
    QTest::newRow("observed variable without data") << QByteArray("data q: real[3]\nq ~ Normal(0, 1)\n")
        << "m.vmod:1:6: error: data 'q' is declared but missing from the data";
    QTest::newRow("data of wrong shape") << QByteArray("data N: int\ndata y: real[N]\ny ~ Normal(0, 1)\n")
        << "m.vmod:2:6: error: data 'y' has shape [4], expected [3] (declared real[N])";
    QTest::newRow("data of wrong type") << QByteArray("data i: int\nmu ~ Normal(i, 1)\n")
        << "m.vmod:1:6: error: data 'i' is declared int but holds the real value 2.5";
    QTest::newRow("data outside the support") << QByteArray("data k: int[3]\nk ~ Poisson(2)\n")
        << "m.vmod:2:1: error: data 'k' is outside the support of Poisson (nonnegative_integer): got -2.0";
    QTest::newRow("invalid argument from data") << QByteArray("data s: real\nmu ~ Normal(0, s)\n")
        << "m.vmod:2:6: error: Normal: argument 'sigma' must be positive, got -1";
    // Bounds on data, checked when it is bound (Stan's constrained data).
    QTest::newRow("data below its lower bound") << QByteArray("data k: int<lower=0>[3]\nmu ~ Normal(0, 1)\n")
        << "m.vmod:1:6: error: data 'k' must be >= 0 (its lower bound), got -2 at k[2]";
    QTest::newRow("data above its upper bound") << QByteArray("data x: real<lower=0, upper=2.5>[3]\nmu ~ Normal(0, 1)\n")
        << "m.vmod:1:6: error: data 'x' must be <= 2.5 (its upper bound), got 3 at x[3]";
    QTest::newRow("scalar data below a bound of data") << QByteArray("data N: int\ndata s: real<lower=N>\nmu ~ Normal(0, 1)\n")
        << "m.vmod:2:6: error: data 's' must be >= N (its lower bound), got -1";
    QTest::newRow("bound from a parameter") << QByteArray("mu ~ Normal(0, 1)\ndata x: real<lower=mu>[3]\n")
        << "m.vmod:2:20: error: the bounds of data must come from the data, but 'mu' is a latent variable";
    QTest::newRow("bound of another shape") << QByteArray("data z: real[4]\ndata x: real<lower=z>[3]\nmu ~ Normal(0, 1)\n")
        << "m.vmod:2:20: error: the lower bound of 'x' has shape [4]; a bound is a scalar or has the data's shape [3]";
    QTest::newRow("misspelt bound") << QByteArray("data x: real<low=0>[3]\nmu ~ Normal(0, 1)\n")
        << "m.vmod:1:14: error: expected 'lower' or 'upper' in the bounds of 'x', got 'low'";
    QTest::newRow("bound given twice") << QByteArray("data x: real<lower=0, lower=1>[3]\nmu ~ Normal(0, 1)\n")
        << "m.vmod:1:23: error: the lower bound of 'x' is given twice";
    QTest::newRow("unclosed bounds") << QByteArray("data x: real<lower=0\nmu ~ Normal(0, 1)\n")
        << "m.vmod:1:21: error: expected '>' to close the bounds of 'x'";
    // The language additions of issue 19 (all of them: tests/engine/model/tst_language_additions.cpp).
    QTest::newRow("vector of mixed items") << QByteArray("data x: real[3]\nv = [1, x]\nq ~ Normal(0, 1)\n")
        << "m.vmod:2:9: error: the items of a vector have one shape: item 1 has shape [] but item 2 ('x') has shape [3]";
    QTest::newRow("vector compared with a matrix") << QByteArray("data x: real[3]\ndata X: real[3, 2]\nc = x < X\nq ~ Normal(0, 1)\n")
        << "m.vmod:3:5: error: '<' needs operands of one shape (or a scalar), got shapes [3] and [3, 2] in 'x < X'";
    QTest::newRow("function arity") << QByteArray("data x: real[3]\nq ~ Normal(log_sum_exp(x, x), 1)\n")
        << "m.vmod:2:12: error: log_sum_exp takes 1 argument, got 2";
    QTest::newRow("recurrence reads its own element") << QByteArray("data N: int\ns[1] = 0\ns[t] = s[t] + 1 for t in 2:N\n")
        << "m.vmod:3:8: error: the step of 's' may read only earlier elements, as in 's[t - 1]'; got 's[t]'";
    QTest::newRow("recurrence without initial element") << QByteArray("data N: int\ns[t] = s[t - 1] for t in 2:N\n")
        << "m.vmod:2:1: error: the recurrence 's' has no initial element: give 's[1] = ...' before its step";
    QTest::newRow("index variable used outside") << QByteArray("data N: int\ns[1] = 0\ns[t] = s[t - 1] for t in 2:N\nq ~ Normal(t, 1)\n")
        << "m.vmod:4:12: error: undefined name 't'; 't' is the index of the step of 's' (line 3) and known only there";
    QTest::newRow("truncation of a family without a CDF") << QByteArray("mu ~ Gamma(2, 2) T[0, 1]\n")
        << "m.vmod:1:18: error: Gamma cannot be truncated: it has no cumulative distribution function here (truncatable: Cauchy, Exponential, Logistic, Normal)";
    QTest::newRow("truncation bound of wrong shape") << QByteArray("data x: real[3]\nmu ~ Normal(0, 1) T[x, ]\n")
        << "m.vmod:2:21: error: the truncation bound 'x' has shape [3], more dimensions than the arguments of Normal (shape [])";
    QTest::newRow("discrete parameter") << QByteArray("z ~ Poisson(3)\n")
        << "m.vmod:1:1: error: 'z' has a discrete distribution (Poisson) but no data";
    QTest::newRow("distribution in an expression") << QByteArray("x = Normal(0, 1)\n")
        << "m.vmod:1:5: error: 'Normal' is a distribution";
    QTest::newRow("unknown function") << QByteArray("mu ~ Normal(exq(1), 1)\n")
        << "m.vmod:1:13: error: unknown function 'exq'; did you mean 'exp'?";
    QTest::newRow("defined twice") << QByteArray("mu ~ Normal(0, 1)\nmu ~ Normal(0, 2)\n")
        << "m.vmod:2:1: error: 'mu' is already given a distribution (line 1)";
    QTest::newRow("truncated file") << QByteArray("mu ~ Normal(0, ")
        << "m.vmod:1:12: error: '(' was never closed";
    QTest::newRow("missing tilde") << QByteArray("mu Normal(0, 5)\n")
        << "m.vmod:1:4: error: expected '~' or '=' after 'mu', got 'Normal'";
    QTest::newRow("non-UTF-8 bytes") << QByteArray("mu ~ Normal(0, 1)\nx\xff ~ Normal(0, 1)\n")
        << "m.vmod:2:2: error: invalid UTF-8 byte 0xFF";
    QTest::newRow("deeply nested parentheses") << (QByteArray("x = ") + QByteArray(100000, '(') + "1" + QByteArray(100000, ')') + "\n")
        << "error: too many nested parentheses, brackets or operators (the limit is 256)";
  }
  void checkReportsErrors() {
    QFETCH(QByteArray, model);
    QFETCH(QString, expected);
    QTemporaryDir directory;
    write(directory.filePath("m.vmod"), model);
    write(directory.filePath("d.json"), kData);
    const Outcome outcome = run({"check", "m.vmod", "--data", "d.json"}, directory.path());
    QVERIFY2(outcome.finished, "variate check did not finish within a minute");
    QVERIFY2(!outcome.crashed, qPrintable(outcome.output));
    QCOMPARE(outcome.exit_code, 1);
    QVERIFY2(outcome.output.contains(expected), qPrintable(outcome.output));
  }

  void everyErrorInAFileIsReported() {
    QTemporaryDir directory;
    write(directory.filePath("m.vmod"), "a ~ Normall(0, 1)\nb ~ Normal(c, 1)\nd = exq(2)\n");
    const Outcome outcome = run({"check", "m.vmod"}, directory.path());
    QCOMPARE(outcome.exit_code, 1);
    QVERIFY2(outcome.output.contains("m.vmod:1:5: error: unknown distribution 'Normall'"), qPrintable(outcome.output));
    QVERIFY2(outcome.output.contains("m.vmod:2:12: error: undefined name 'c'"), qPrintable(outcome.output));
    QVERIFY2(outcome.output.contains("m.vmod:3:5: error: unknown function 'exq'"), qPrintable(outcome.output));
    QVERIFY2(outcome.output.contains("3 errors in m.vmod"), qPrintable(outcome.output));
  }

  void tenMegabytesOfGarbageEndQuickly() {
    QTemporaryDir directory;
    QByteArray garbage(10 * 1024 * 1024, '\0');
    quint32 state = 12345;  // a fixed linear congruential stream of bytes
    for (auto& byte : garbage) {
      state = state * 1664525u + 1013904223u;
      byte = static_cast<char>(state >> 24);
    }
    write(directory.filePath("m.vmod"), garbage);
    const Outcome outcome = run({"check", "m.vmod"}, directory.path());
    QVERIFY2(outcome.finished, "did not finish within a minute");
    QVERIFY(!outcome.crashed);
    QCOMPARE(outcome.exit_code, 1);
    QVERIFY2(outcome.output.contains("too many errors; stopping"), qPrintable(outcome.output.left(2000)));
  }

  void badDataFiles_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected");
    QTest::newRow("malformed JSON") << "d.json" << QByteArray("{\"N\": 3,\n \"x\": [1, 2")
        << "error: d.json:2:12: malformed JSON: syntax error";
    QTest::newRow("JSON that is not an object") << "d.json" << QByteArray("[1, 2, 3]")
        << "error: d.json: JSON data must be an object of named values, got array";
    QTest::newRow("ragged array") << "d.json" << QByteArray("{\"x\": [[1, 2], [3]]}")
        << "error: d.json: data variable 'x' is a ragged array";
    QTest::newRow("CSV with a short row") << "d.csv" << QByteArray("x\n1\n2,3\n")
        << "error: d.csv:3:1: expected 1 fields as in the header row, got 2";
    QTest::newRow("unknown format") << "d.txt" << QByteArray("x = 1")
        << "error: d.txt: unknown data format (expected a .json or .csv file)";
    QTest::newRow("missing file") << "" << QByteArray()
        << "error: missing.json: cannot open file";
  }
  void badDataFiles() {
    QFETCH(QString, file);
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    QTemporaryDir directory;
    write(directory.filePath("m.vmod"), "data x: real[3]\nx ~ Normal(0, 1)\n");
    if (!file.isEmpty()) write(directory.filePath(file), content);
    const Outcome outcome =
        run({"check", "m.vmod", "--data", file.isEmpty() ? "missing.json" : file}, directory.path());
    QCOMPARE(outcome.exit_code, 1);
    QVERIFY2(outcome.output.contains(expected), qPrintable(outcome.output));
  }

  // Option errors speak the CLI's language, and the paths a run writes at its end are
  // checked before it starts: nothing is sampled.
  void badOptionsAreRefusedBeforeSampling_data() {
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("expected");
    QTest::newRow("adapt delta") << QStringList{"--adapt-delta", "1.5"}
        << "--adapt-delta: expected a number above 0 and up to 0.9999, got 1.5";
    QTest::newRow("no chains") << QStringList{"--chains", "0"} << "--chains: expected a whole number from 1 to 1024, got 0";
    QTest::newRow("negative seed") << QStringList{"--seed", "-1"}
        << "--seed: expected a whole number from 0 to 18446744073709551615, got '-1'";
    QTest::newRow("summary in a missing folder") << QStringList{"--summary-json", "/nonexistent/s.json"}
        << "--summary-json: cannot write '/nonexistent/s.json': the folder '/nonexistent' does not exist";
    QTest::newRow("summary onto a folder") << QStringList{"--summary-json", "."} << "--summary-json: cannot write '.': it is a folder";
    QTest::newRow("output onto a file") << QStringList{"--output", "m.vmod"} << "--output: 'm.vmod' is a file, not a folder";
    QTest::newRow("output under a file") << QStringList{"--output", "m.vmod/out"}
        << "--output: cannot create the folder 'm.vmod/out': Not a directory";
    // Unknown options: the one meant, or what CmdStan's becomes here.
    QTest::newRow("misspelt option") << QStringList{"--drawz", "10"}
        << "error: unknown option '--drawz' for `variate sample`; did you mean '--draws'?";
    QTest::newRow("misspelt with a value") << QStringList{"--adapt-detla=0.9"}
        << "error: unknown option '--adapt-detla' for `variate sample`; did you mean '--adapt-delta'?";
    QTest::newRow("CmdStan's thin") << QStringList{"--thin", "2"}
        << "error: unknown option '--thin' for `variate sample`: Variate keeps every draw (CmdStan's --thin N keeps "
           "every N-th); ESS and R-hat use them all";
    QTest::newRow("CmdStan's refresh") << QStringList{"--refresh", "100"}
        << "error: unknown option '--refresh' for `variate sample`: progress is shown about once a second; --quiet "
           "turns it off";
    QTest::newRow("a word of no option") << QStringList{"extra"} << "error: `variate sample` does not take 'extra'";
  }
  void badOptionsAreRefusedBeforeSampling() {
    QFETCH(QStringList, options);
    QFETCH(QString, expected);
    QTemporaryDir directory;
    write(directory.filePath("m.vmod"), "mu ~ Normal(0, 1)\n");
    const Outcome outcome = run(QStringList{"sample", "m.vmod", "--warmup", "50", "--draws", "50"} + options, directory.path());
    QVERIFY(outcome.exit_code != 0);
    QVERIFY2(outcome.output.contains(expected), qPrintable(outcome.output));
    QVERIFY2(!outcome.output.contains("Iteration"), qPrintable(outcome.output));
    QVERIFY2(!outcome.output.contains(QRegularExpression("[0-9]{21}")), qPrintable(outcome.output));
  }

  void badParameterFiles_data() {
    QTest::addColumn<QByteArray>("params");
    QTest::addColumn<QString>("expected");
    QTest::newRow("missing parameter") << QByteArray("{\"mu\": 1}")
        << "error: p.json: no value for parameter 'sigma'";
    QTest::newRow("unknown parameter") << QByteArray("{\"mu\": 1, \"sigma\": 1, \"nu\": 2}")
        << "error: p.json: 'nu' is not a parameter of the model";
    QTest::newRow("wrong shape") << QByteArray("{\"mu\": [1, 2], \"sigma\": 1}")
        << "error: p.json: parameter 'mu' has shape [2], expected []";
    QTest::newRow("outside the support") << QByteArray("{\"mu\": 1, \"sigma\": -1}")
        << "error: p.json: parameter 'sigma' is outside its support (positive)";
    // Found by fuzz_logp_params: the JSON library's overflow error ended the program.
    QTest::newRow("number beyond a double") << QByteArray("{\"mu\": 1, \"sigma\": 1e336}")
        << "error: p.json:1:20: the number 1e336 is beyond the range of a double";
  }
  void badParameterFiles() {
    QFETCH(QByteArray, params);
    QFETCH(QString, expected);
    QTemporaryDir directory;
    write(directory.filePath("m.vmod"),
          "data x: real[3]\nmu ~ Normal(0, 1)\nsigma ~ HalfNormal(1)\nx ~ Normal(mu, sigma)\n");
    write(directory.filePath("d.json"), kData);
    write(directory.filePath("p.json"), params);
    const Outcome outcome =
        run({"logp", "m.vmod", "--data", "d.json", "--params", "p.json"}, directory.path());
    QCOMPARE(outcome.exit_code, 1);
    QVERIFY2(outcome.output.contains(expected), qPrintable(outcome.output));
  }

  // Eight schools with one sigma of -1, as a new user might type it: no initial point has a
  // finite density, and the message says which value is wrong and where it is used.
  void aFailedInitializationNamesTheInvalidArgument_data() {
    QTest::addColumn<QStringList>("options");
    QTest::newRow("tape") << QStringList{"--backend", "tape"};
    QTest::newRow("LibTorch") << QStringList{"--backend", "torch"};
    QTest::newRow("into a project") << QStringList{"--project", "p.variate"};
  }
  void aFailedInitializationNamesTheInvalidArgument() {
    QFETCH(QStringList, options);
    QTemporaryDir directory;
    write(directory.filePath("eight_schools.vmod"),
          "data J: int\ndata y: real[J]\ndata sigma: real[J]\n\nmu ~ Normal(0, 5)\ntau ~ HalfCauchy(5)\n"
          "theta_trans[J] ~ Normal(0, 1)\ntheta = theta_trans * tau + mu\n\n\ny ~ Normal(theta, sigma)\n");
    write(directory.filePath("data.json"),
          R"({"J": 8, "y": [28, 8, -3, 7, -1, 1, 18, 12], "sigma": [15, 10, -1, 11, 9, 11, 10, 18]})");
    const Outcome outcome = run(QStringList{"sample", "eight_schools.vmod", "--data", "data.json", "--chains", "2",
                                            "--seed", "1", "--output", "out"} + options,
                                directory.path());
    QVERIFY(outcome.finished && !outcome.crashed);
    QCOMPARE(outcome.exit_code, 1);
    QVERIFY2(outcome.output.contains("no initial point with a finite log density"), qPrintable(outcome.output));
    QVERIFY2(outcome.output.contains("eight_schools.vmod:11:5: error: Normal: argument 'sigma' must be positive, "
                                     "got -1 (at index 3)\ny ~ Normal(theta, sigma)\n    ^"),
             qPrintable(outcome.output));
  }
};

QTEST_GUILESS_MAIN(TestVariateErrors)
#include "tst_variate_errors.moc"
