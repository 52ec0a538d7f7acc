// Large inputs a user can hand `variate`: a data file of several GB, a model of 10^6
// parameters, a model text of 10 MB, a CSV line of 1 MB. Each works in memory that
// follows its numbers, or fails at once with a message naming the sizes: never an
// allocation that a size written in the input asks for, never a crash, never the system's
// out-of-memory killer.
//
// Each child's peak resident memory comes from wait4(); limits on its address space
// (RLIMIT_AS, what `ulimit -v` sets) stand in for a smaller machine. The data file is
// 10^7 numbers (120 MB of JSON); VARIATE_BIG_DATA_NUMBERS=400000000 makes it 4.2 GB, and
// VARIATE_RUN_SLOW=1 also samples the model of 10^6 parameters (about five minutes).

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QtTest/QtTest>

#include "tests/support/sanitizer_build.h"

namespace {

// A sanitizer build reserves terabytes of address space for its shadow memory, so a limit
// on address space stops `variate` before main: there the machine's own memory is the
// bound, and peak memory (with the sanitizer's shadow and quarantine) is not measured.
constexpr bool kSanitized = test_support::kSanitizerBuild;

struct Measured {
  bool finished = false;
  bool crashed = false;
  int exit_code = -1;
  long peak_kib = 0;  // the child's largest resident set
  QString output;
};

// Runs `variate ARGUMENTS` in `directory` with at most `address_space` bytes of address
// space (0: no limit; none in a sanitizer build) and one thread for LibTorch's and OpenBLAS's pools (so that its
// address space does not depend on the machine's cores), for at most `timeout_s`.
Measured run_measured(const QStringList& arguments, const QString& directory, rlim_t address_space = 0,
                      int timeout_s = 600) {
  const QString log = directory + "/child.log";
  std::vector<QByteArray> storage{QByteArray(VARIATE_EXECUTABLE)};
  for (const QString& argument : arguments) storage.push_back(argument.toUtf8());
  std::vector<char*> argv;
  for (QByteArray& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  const QByteArray log_path = log.toUtf8(), folder = directory.toUtf8();
  const pid_t pid = fork();
  if (pid == 0) {
    const int out = open(log_path.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, 1);
    dup2(out, 2);
    if (chdir(folder.constData()) != 0) _exit(125);
    if (address_space > 0 && !kSanitized) {
      const rlimit limit{address_space, address_space};
      setrlimit(RLIMIT_AS, &limit);
    }
    setenv("OMP_NUM_THREADS", "1", 1);
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    setenv("MALLOC_ARENA_MAX", "2", 1);
    execv(argv[0], argv.data());
    _exit(127);
  }
  Measured measured;
  int status = 0;
  rusage usage{};
  QDeadlineTimer deadline(timeout_s * 1000);
  while (true) {
    const pid_t done = wait4(pid, &status, WNOHANG, &usage);
    if (done == pid) {
      measured.finished = true;
      break;
    }
    if (deadline.hasExpired()) {
      kill(pid, SIGKILL);  // only the child this test started
      wait4(pid, &status, 0, &usage);
      break;
    }
    QThread::msleep(20);
  }
  measured.crashed = WIFSIGNALED(status);
  measured.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  measured.peak_kib = usage.ru_maxrss;
  QFile file(log);
  if (file.open(QIODevice::ReadOnly)) measured.output = QString::fromUtf8(file.readAll());
  return measured;
}

void write(const QString& path, const QByteArray& bytes) {
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  QCOMPARE(file.write(bytes), bytes.size());
}

// {"N": n, "y": [...]}: n reals with six decimals (about 12 bytes of text each), written
// in pieces so that the test itself holds little of it.
void write_data(const QString& path, qint64 n) {
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write("{\"N\": " + QByteArray::number(n) + ", \"y\": [");
  QByteArray piece;
  quint32 state = 7;
  for (qint64 i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    piece += QByteArray::number((state >> 8) / double(1 << 24) * 4 - 2, 'f', 6);
    if (i + 1 < n) piece += ", ";
    if (piece.size() > (1 << 20)) {
      file.write(piece);
      piece.clear();
    }
  }
  file.write(piece + "]}\n");
}

const QByteArray kNormalModel = "data N: int\ndata y: real[N]\nmu ~ Normal(0, 10)\nsigma ~ HalfNormal(5)\n"
                                "y ~ Normal(mu, sigma)\n";
const QByteArray kMillionModel = "data N: int\ndata y: real[N]\ntheta[N] ~ Normal(0, 1)\ny ~ Normal(theta, 1)\n";
constexpr rlim_t kGiB = rlim_t{1} << 30;

bool slow() { return qEnvironmentVariableIntValue("VARIATE_RUN_SLOW") == 1; }

}  // namespace

class TestVariateResourceBounds : public QObject {
  Q_OBJECT

 private slots:
  // The data reader keeps each number once (8 bytes), not the file's text and a document
  // tree of it; the tape keeps the data in its program. Checking the model costs at most
  // four times the numbers' bytes over a tiny file's run.
  void aLargeDataFileCostsItsNumbers() {
    const qint64 n = qEnvironmentVariableIsSet("VARIATE_BIG_DATA_NUMBERS")
                         ? qEnvironmentVariable("VARIATE_BIG_DATA_NUMBERS").toLongLong()
                         : 10000000;
    QTemporaryDir dir;
    write(dir.filePath("m.vmod"), kNormalModel);
    write_data(dir.filePath("small.json"), 10);
    write_data(dir.filePath("big.json"), n);
    const Measured small = run_measured({"check", "m.vmod", "--data", "small.json"}, dir.path());
    QVERIFY2(small.exit_code == 0, qPrintable(small.output));
    const Measured big = run_measured({"check", "m.vmod", "--data", "big.json"}, dir.path());
    QVERIFY2(big.exit_code == 0, qPrintable(big.output));
    QVERIFY2(big.output.contains("parameters (2 unconstrained): mu sigma"), qPrintable(big.output));
    const double numbers_mib = 8.0 * n / (1 << 20);
    const double extra_mib = (big.peak_kib - small.peak_kib) / 1024.0;
    qInfo("%lld numbers (%.0f MiB of JSON, %.0f MiB as doubles): peak resident %.0f MiB, %.0f MiB over a tiny file's "
          "(%.2fx the numbers)",
          static_cast<long long>(n), QFileInfo(dir.filePath("big.json")).size() / double(1 << 20), numbers_mib,
          big.peak_kib / 1024.0, extra_mib, extra_mib / numbers_mib);
    if (!kSanitized)
      QVERIFY2(extra_mib <= 4 * numbers_mib, qPrintable(QString("%1 MiB over the tiny file's run").arg(extra_mib)));
  }

  // Where the memory is not there, the command says so and exits; it does not crash.
  void tooLittleMemoryForTheDataIsAMessage() {
    if (kSanitized) QSKIP("a sanitizer build cannot run under a limit on address space");
    QTemporaryDir dir;
    write(dir.filePath("m.vmod"), kNormalModel);
    write_data(dir.filePath("big.json"), 30000000);  // 240 MB as doubles, beyond 1 GiB of address space
    const Measured measured = run_measured({"check", "m.vmod", "--data", "big.json"}, dir.path(), kGiB);
    QVERIFY2(measured.finished && !measured.crashed, qPrintable(measured.output));
    QCOMPARE(measured.exit_code, 1);
    QVERIFY2(measured.output.startsWith("error: ") && measured.output.contains("memory"), qPrintable(measured.output));
  }

  // A project keeps its data sets in SQLite, whose values are at most 1e9 bytes: a larger
  // file is refused before it is read, with the way to run it, and no project is made.
  void aDataFileLargerThanAProjectHoldsIsRefusedFirst() {
    QTemporaryDir dir;
    write(dir.filePath("m.vmod"), kNormalModel);
    QFile sparse(dir.filePath("big.json"));  // a sparse file: its size without its bytes
    QVERIFY(sparse.open(QIODevice::WriteOnly));
    QVERIFY(sparse.resize(1000000001));
    sparse.close();
    const Measured measured =
        run_measured({"sample", "m.vmod", "--data", "big.json", "--project", "p.variate"}, dir.path(), 0, 60);
    QCOMPARE(measured.exit_code, 1);
    QVERIFY2(measured.output.contains("error: --project: the data file 'big.json' has 1000000001 bytes; a project stores "
                                      "a data set of at most 1000000000 bytes (SQLite's limit on one value): run "
                                      "without --project"),
             qPrintable(measured.output));
    QVERIFY(!QFile::exists(dir.filePath("p.variate")));
  }

  // 10^6 parameters: the model checks in little memory; what would keep more than there is
  // (every NUTS draw, a d x d matrix, Pathfinder's draws) is refused before any work, with
  // the sizes named. 16 GiB of address space stands in for the machine.
  void aMillionParameters_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("sample") << QStringList{"sample", "--seed", "1"}
                            << "error: 4 chains of 1000 warmup and 1000 draws of 1000000 parameters (every draw is kept "
                               "in memory) needs 128.0 GB of memory, and ";
    QTest::newRow("full-rank ADVI") << QStringList{"fit", "--method", "fullrank", "--precondition", "none", "--output-draws", "10", "--seed", "1"}
                                    << "full-rank ADVI of 1000000 parameters (a d x d scale factor) needs 32.0 TB of memory";
    QTest::newRow("ADVI's draws") << QStringList{"fit", "--seed", "1"}
                                  << "error: 1000 output draws of 1000000 parameters needs 48.0 GB of memory";
    QTest::newRow("Pathfinder") << QStringList{"pathfinder", "--seed", "1"}
                                << "Pathfinder's 4 paths of 1000 draws of 1000000 parameters needs ";
  }
  void aMillionParameters() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    QTemporaryDir dir;
    write(dir.filePath("m.vmod"), kMillionModel);
    write_data(dir.filePath("d.json"), 1000000);
    const Measured check = run_measured({"check", "m.vmod", "--data", "d.json"}, dir.path());
    QVERIFY2(check.exit_code == 0 && check.output.contains("parameters (1000000 unconstrained): theta[1000000]"),
             qPrintable(check.output));
    if (!kSanitized) QVERIFY2(check.peak_kib < 1024 * 1024, qPrintable(QString("%1 KiB").arg(check.peak_kib)));
    const Measured run = run_measured(arguments + QStringList{"m.vmod", "--data", "d.json"}, dir.path(), 16 * kGiB, 300);
    QVERIFY2(run.finished && !run.crashed, qPrintable(run.output.left(2000)));
    QCOMPARE(run.exit_code, 1);
    QVERIFY2(run.output.contains(message), qPrintable(run.output.left(2000)));
  }

  // Sampling them works where the draws fit (one chain, few draws): slow, so on request.
  void aMillionParametersSample() {
    if (!slow()) QSKIP("VARIATE_RUN_SLOW=1 samples 10^6 parameters (about five minutes)");
    QTemporaryDir dir;
    write(dir.filePath("m.vmod"), kMillionModel);
    write_data(dir.filePath("d.json"), 1000000);
    const Measured run = run_measured({"sample", "m.vmod", "--data", "d.json", "--chains", "1", "--warmup", "30",
                                       "--draws", "20", "--seed", "1", "--quiet", "--output", "out"},
                                      dir.path(), 16 * kGiB, 1800);
    QVERIFY2(run.exit_code == 0, qPrintable(run.output.right(2000)));
    qInfo("1 chain x 50 iterations of 10^6 parameters: peak resident %.0f MiB", run.peak_kib / 1024.0);
  }

  // A size written in the data asks for no allocation it cannot have: N = 10^12 latent
  // values (8 TB) and N = 2 x 10^9 (16 GB, which the system would grant and then kill
  // the process for using) are both refused by name.
  void aLatentSizeFromTheDataIsChecked_data() {
    QTest::addColumn<QByteArray>("n");
    QTest::addColumn<QString>("message");
    QTest::newRow("10^12") << QByteArray("1000000000000")
                           << "error: the latent variable 'theta' of shape [1000000000000] needs 32.0 TB of memory";
    QTest::newRow("2 x 10^9") << QByteArray("2000000000")
                              << "error: the latent variable 'theta' of shape [2000000000] needs 64.0 GB of memory";
  }
  void aLatentSizeFromTheDataIsChecked() {
    QFETCH(QByteArray, n);
    QFETCH(QString, message);
    QTemporaryDir dir;
    write(dir.filePath("m.vmod"), "data N: int\ntheta[N] ~ Normal(0, 1)\n");
    write(dir.filePath("d.json"), "{\"N\": " + n + "}");
    const Measured run = run_measured({"check", "m.vmod", "--data", "d.json"}, dir.path(), 16 * kGiB, 120);
    QVERIFY2(run.finished && !run.crashed, qPrintable(run.output));
    QCOMPARE(run.exit_code, 1);
    QVERIFY2(run.output.contains(message), qPrintable(run.output));
  }

  // 10 MB of model text: 400,000 statements check in time and memory linear in them (the
  // names of variables, nodes and parameters are looked up by hash, not by a scan).
  void aTenMegabyteModel() {
    QTemporaryDir dir;
    QByteArray text;
    for (int i = 0; i < 400000; ++i) text += "a" + QByteArray::number(i) + " ~ Normal(" + QByteArray::number(i % 7) + ", 1)\n";
    text += "# " + QByteArray(10 * 1000 * 1000 - text.size(), 'x') + "\n";
    QVERIFY(text.size() > 10 * 1000 * 1000);
    write(dir.filePath("m.vmod"), text);
    const Measured run = run_measured({"check", "m.vmod"}, dir.path(), 0, 600);
    QVERIFY2(run.exit_code == 0, qPrintable(run.output.left(2000)));
    QVERIFY2(run.output.contains("parameters (400000 unconstrained)"), qPrintable(run.output.left(2000)));
    qInfo("a model of 400,000 statements (10 MB): peak resident %.0f MiB", run.peak_kib / 1024.0);
    if (!kSanitized) QVERIFY2(run.peak_kib < 4 * 1024 * 1024, qPrintable(QString("%1 KiB").arg(run.peak_kib)));
  }

  // A CSV data file whose header is a line of over a megabyte (100,000 columns), and CmdStan
  // CSV files whose header is too (100,000 log_lik columns, read by `variate loo`).
  void csvLinesOfAMegabyte() {
    QTemporaryDir dir;
    QByteArray header, row;
    for (int c = 0; c < 100000; ++c) {
      header += (c ? ",column_" : "column_") + QByteArray::number(c);
      row += c ? ",0.5" : "0.5";
    }
    QVERIFY(header.size() > 1000000);
    write(dir.filePath("wide.csv"), header + "\n" + row + "\n" + row + "\n");
    write(dir.filePath("m.vmod"), "data column_99999: real[2]\nmu ~ Normal(0, 1)\ncolumn_99999 ~ Normal(mu, 1)\n");
    const Measured check = run_measured({"check", "m.vmod", "--data", "wide.csv"}, dir.path(), 0, 120);
    QVERIFY2(check.exit_code == 0, qPrintable(check.output.left(2000)));

    QByteArray stan_header = "lp__";
    for (int i = 1; i <= 100000; ++i) stan_header += ",log_lik." + QByteArray::number(i);
    QVERIFY(stan_header.size() > 1000000);
    for (int chain = 1; chain <= 2; ++chain) {
      QByteArray file = stan_header + "\n";
      quint32 state = chain;
      for (int draw = 0; draw < 20; ++draw) {
        QByteArray line = "-1";
        for (int i = 1; i <= 100000; ++i) {
          state = state * 1664525u + 1013904223u;
          line += ",-" + QByteArray::number(1 + (state >> 16) % 1000 / 1000.0, 'f', 3);
        }
        file += line + "\n";
      }
      write(dir.filePath(QString("chain_%1.csv").arg(chain)), file);
    }
    const Measured loo = run_measured({"loo", "chain_1.csv", "chain_2.csv"}, dir.path(), 0, 300);
    QVERIFY2(loo.exit_code == 0, qPrintable(loo.output.left(2000)));
    QVERIFY2(loo.output.contains("elpd_loo"), qPrintable(loo.output.left(2000)));
  }
};

QTEST_GUILESS_MAIN(TestVariateResourceBounds)
#include "tst_variate_resource_bounds.moc"
