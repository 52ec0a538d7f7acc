// `variate sample|fit` on several processes, as a user runs them on one host (--nproc) and
// across hosts (--rendezvous/--world-size/--rank, here both on 127.0.0.1 at a port the
// system picks): the same files for any number of processes, a clear error for a model
// whose rows cannot be split, and a killed rank that ends the run with its rank named,
// the output so far readable and no process of the run left. Every process runs under a
// timeout, and the test signals only the processes it started or their children, by PID.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include <random>

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest/QtTest>

#include "tests/app/run_program.h"
#include "engine/store/project.h"

using namespace app_test;
namespace store = variate::store;

namespace {

const QString kRadon = QStringLiteral(QT_TESTCASE_SOURCEDIR "/../projects/radon/");
constexpr int kTimeout = 300000;  // ms, for every process

// A logistic regression with an intercept column: y ~ Bernoulli(logits = X @ beta).
void write_logistic(const QString& folder, int n, int d) {
  std::mt19937_64 random(11);
  std::normal_distribution<double> normal;
  QJsonArray x, y;
  for (int i = 0; i < n; ++i) {
    QJsonArray row{1.0};
    double eta = 0.3;
    for (int j = 1; j < d; ++j) {
      const double v = normal(random);
      row.append(v);
      eta += (j % 2 ? 0.5 : -0.25) * v;
    }
    x.append(row);
    y.append(std::uniform_real_distribution<double>()(random) < 1 / (1 + std::exp(-eta)) ? 1 : 0);
  }
  QFile data(folder + "/data.json");
  QVERIFY(data.open(QIODevice::WriteOnly));
  data.write(QJsonDocument(QJsonObject{{"N", n}, {"D", d}, {"X", x}, {"y", y}}).toJson());
  QFile model(folder + "/logistic.vmod");
  QVERIFY(model.open(QIODevice::WriteOnly));
  model.write("data N: int\ndata D: int\ndata X: real[N, D]\ndata y: int[N]\n"
              "beta[D] ~ Normal(0, 1)\ny ~ Bernoulli(logits = X @ beta)\n");
}

QStringList sample_arguments(const QString& model, const QString& data, const QString& output,
                             const QString& iterations = "100") {
  return {"sample", model, "--data", data, "--chains", "2", "--warmup", iterations, "--draws", iterations,
          "--seed", "17", "--quiet", "--output", output};
}

// Every chain's draws (its header and `draws` rows) are the same in `a` and `b`.
void compare_chains(const QString& a, const QString& b, int chains, int draws = 100) {
  for (int chain = 1; chain <= chains; ++chain) {
    const QString file = QString("/chain_%1.csv").arg(chain);
    const QStringList first = draws_of(a + file);
    QVERIFY2(draw_lines(a + file) == draws, qPrintable(first.join('\n').left(400)));
    QCOMPARE(draws_of(b + file), first);
  }
}

// Starts `variate sample --nproc 2` on one chain of a million draws with `extra` options,
// and returns once its CSV holds `draws` draws (or it ended, or two minutes passed).
void start_long_run(QProcess& rank0, const QTemporaryDir& folder, const QTemporaryDir& out, int draws,
                    const QStringList& extra) {
  write_logistic(folder.path(), 2000, 4);
  rank0.setProcessChannelMode(QProcess::MergedChannels);
  rank0.start(VARIATE_EXECUTABLE,
              QStringList{"sample", folder.filePath("logistic.vmod"), "--data", folder.filePath("data.json"), "--chains",
                          "1", "--warmup", "20", "--draws", "1000000", "--seed", "2", "--quiet", "--output",
                          out.path(), "--nproc", "2"}
                  << extra);
  if (!rank0.waitForStarted()) return;
  QDeadlineTimer deadline(120000);
  while (draw_lines(out.filePath("chain_1.csv")) < draws && !deadline.hasExpired() &&
         rank0.state() == QProcess::Running) {
    QTest::qWait(50);
  }
}

bool alive(qint64 pid) { return ::kill(static_cast<pid_t>(pid), 0) == 0; }

// A port the system picks, free a moment ago: torchrun's MASTER_PORT must be named
// before rank 0 starts.
int free_port() {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  ::bind(s, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  ::getsockname(s, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(s);
  return ntohs(address.sin_port);
}

}  // namespace

class TestVariateDistributed : public QObject {
  Q_OBJECT

 private slots:
  void logisticRegressionDrawsTheSameOnOneTwoAndThreeProcesses() {
    QTemporaryDir folder, one, two, three;
    write_logistic(folder.path(), 3000, 6);
    const QString model = folder.filePath("logistic.vmod");
    const QString data = folder.filePath("data.json");
    const Outcome a = run(sample_arguments(model, data, one.path()) << "--nproc" << "1", kTimeout);
    QVERIFY2(a.exit_code == 0, qPrintable(a.output));
    const Outcome b = run(sample_arguments(model, data, two.path()) << "--nproc" << "2" << "--summary-json"
                              << two.filePath("summary.json"), kTimeout);
    QVERIFY2(b.exit_code == 0, qPrintable(b.output));
    QVERIFY2(b.output.contains("running on 2 processes"), qPrintable(b.output));
    const Outcome c = run(sample_arguments(model, data, three.path()) << "--nproc" << "3", kTimeout);
    QVERIFY2(c.exit_code == 0, qPrintable(c.output));
    compare_chains(one.path(), two.path(), 2);
    compare_chains(one.path(), three.path(), 2);
    QFile summary(two.filePath("summary.json"));
    QVERIFY(summary.open(QIODevice::ReadOnly));
    const QJsonObject document = QJsonDocument::fromJson(summary.readAll()).object();
    QCOMPARE(document["ranks"].toInt(), 2);
    QVERIFY(document["parameters"].toObject().contains("beta[1]"));
  }

  void radonWithItsCountyIndexDrawsTheSameOnOneAndTwoProcesses() {
    QTemporaryDir one, two;
    const QString model = kRadon + "radon.vmod";
    const QString data = kRadon + "data.json";
    // 919 houses in 85 counties: each gradient is a collective, so 30 + 30 iterations are
    // thousands of them, enough to show the same draws.
    const Outcome a = run(sample_arguments(model, data, one.path(), "30") << "--nproc" << "1", kTimeout);
    QVERIFY2(a.exit_code == 0, qPrintable(a.output));
    const Outcome b = run(sample_arguments(model, data, two.path(), "30") << "--nproc" << "2", kTimeout);
    QVERIFY2(b.exit_code == 0, qPrintable(b.output));
    compare_chains(one.path(), two.path(), 2, 30);
  }

  void fitGivesTheSameApproximationOnOneAndTwoProcesses() {
    QTemporaryDir folder, one, two;
    write_logistic(folder.path(), 3000, 6);
    const QStringList fit{"fit", folder.filePath("logistic.vmod"), "--data", folder.filePath("data.json"),
                          "--seed", "4", "--quiet", "--output-draws", "200"};
    const Outcome a = run(QStringList(fit) << "--output" << one.path() << "--nproc" << "1", kTimeout);
    QVERIFY2(a.exit_code == 0, qPrintable(a.output));
    const Outcome b = run(QStringList(fit) << "--output" << two.path() << "--nproc" << "2", kTimeout);
    QVERIFY2(b.exit_code == 0, qPrintable(b.output));
    const QStringList first = draws_of(one.filePath("variational.csv"));
    QVERIFY(first.size() > 200);
    QCOMPARE(draws_of(two.filePath("variational.csv")), first);
  }

  void ranksStartedAsIndependentCommandsMeetAtTheRendezvous() {
    QTemporaryDir folder, one, ranked;
    write_logistic(folder.path(), 2000, 4);
    const QString model = folder.filePath("logistic.vmod");
    const QString data = folder.filePath("data.json");
    const Outcome a = run(sample_arguments(model, data, one.path()) << "--nproc" << "1", kTimeout);
    QVERIFY2(a.exit_code == 0, qPrintable(a.output));

    QProcess rank0;
    rank0.setProcessChannelMode(QProcess::MergedChannels);
    rank0.start(VARIATE_EXECUTABLE, sample_arguments(model, data, ranked.path())
                                        << "--rendezvous" << "127.0.0.1:0" << "--world-size" << "2" << "--rank" << "0");
    QString said;
    const QRegularExpression served("serves tcp://127\\.0\\.0\\.1:(\\d+)");
    QDeadlineTimer deadline(60000);
    while (!served.match(said).hasMatch() && !deadline.hasExpired() && rank0.state() != QProcess::NotRunning) {
      rank0.waitForReadyRead(200);
      said += QString::fromUtf8(rank0.readAll());
    }
    const QString port = served.match(said).captured(1);
    QVERIFY2(!port.isEmpty(), qPrintable(said));
    QTemporaryDir unused;
    const Outcome rank1 = run(sample_arguments(model, data, unused.path())
                                  << "--rendezvous" << "127.0.0.1:" + port << "--world-size" << "2" << "--rank" << "1",
                              kTimeout);
    QVERIFY2(rank1.exit_code == 0, qPrintable(rank1.output));
    QVERIFY(rank0.waitForFinished(kTimeout));
    said += QString::fromUtf8(rank0.readAll());
    QVERIFY2(rank0.exitCode() == 0, qPrintable(said));
    compare_chains(one.path(), ranked.path(), 2);
    QVERIFY2(QDir(unused.path()).entryList(QDir::Files).isEmpty(), "rank 1 wrote outputs");
  }

  void ranksFindTheRunInTorchrunsVariables() {
    QTemporaryDir folder, one, ranked, unused;
    write_logistic(folder.path(), 2000, 4);
    const QString model = folder.filePath("logistic.vmod");
    const QString data = folder.filePath("data.json");
    const Outcome a = run(sample_arguments(model, data, one.path()) << "--nproc" << "1", kTimeout);
    QVERIFY2(a.exit_code == 0, qPrintable(a.output));
    const QString port = QString::number(free_port());
    QProcess ranks[2];
    for (int r = 0; r < 2; ++r) {
      QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
      environment.insert("RANK", QString::number(r));
      environment.insert("WORLD_SIZE", "2");
      environment.insert("MASTER_ADDR", "127.0.0.1");
      environment.insert("MASTER_PORT", port);
      ranks[r].setProcessEnvironment(environment);
      ranks[r].setProcessChannelMode(QProcess::MergedChannels);
      ranks[r].start(VARIATE_EXECUTABLE, sample_arguments(model, data, r == 0 ? ranked.path() : unused.path()));
    }
    for (auto& rank : ranks) {
      QVERIFY(rank.waitForFinished(kTimeout));
      QVERIFY2(rank.exitCode() == 0, rank.readAll().constData());
    }
    compare_chains(one.path(), ranked.path(), 2);
  }

  void aRankThatNeverComesIsNamed() {
    QTemporaryDir folder, out;
    write_logistic(folder.path(), 100, 2);
    const Outcome alone = run(sample_arguments(folder.filePath("logistic.vmod"), folder.filePath("data.json"), out.path())
                                  << "--rendezvous" << "127.0.0.1:0" << "--world-size" << "3" << "--rank" << "0"
                                  << "--dist-timeout" << "2",
                              kTimeout);
    QVERIFY2(alone.exit_code == 1, qPrintable(alone.output));
    QVERIFY2(alone.output.contains(QRegularExpression("ranks 1 and 2 of 3 did not join within 2 s \\(rendezvous tcp://127\\.0\\.0\\.1:[1-9]")),
             qPrintable(alone.output));
  }

  void dataReadOutsideTheLikelihoodIsAnErrorAtItsPlace() {
    QTemporaryDir folder;
    QFile model(folder.filePath("m.vmod"));
    QVERIFY(model.open(QIODevice::WriteOnly));
    model.write("data N: int\ndata x: real[N]\ndata y: real[N]\nmu ~ Normal(mean(x), 1)\ny ~ Normal(mu + x, 1)\n");
    model.close();
    QFile data(folder.filePath("d.json"));
    QVERIFY(data.open(QIODevice::WriteOnly));
    data.write(R"({"N": 4, "x": [1, 2, 3, 4], "y": [0.5, 1, 1.5, 2]})");
    data.close();
    const Outcome refused = run({"sample", folder.filePath("m.vmod"), "--data", folder.filePath("d.json"),
                                 "--nproc", "2", "--quiet"},
                                kTimeout);
    QCOMPARE(refused.exit_code, 1);
    QVERIFY2(refused.output.contains("m.vmod:4:18: error: cannot split the rows between processes: 'x' is read here"),
             qPrintable(refused.output));
    // Evaluated whole on each process, it runs.
    const Outcome whole = run({"sample", folder.filePath("m.vmod"), "--data", folder.filePath("d.json"), "--nproc",
                               "2", "--shard", "none", "--quiet", "--warmup", "50", "--draws", "50"},
                              kTimeout);
    QVERIFY2(whole.exit_code == 0, qPrintable(whole.output));
  }

  void aKilledRankEndsTheRunAndLeavesReadableOutput() {
    QTemporaryDir folder, out;
    const QString project = folder.filePath("runs.variate");
    QProcess rank0;
    start_long_run(rank0, folder, out, 200, {"--dist-timeout", "20", "--project", project});
    const qint64 parent = rank0.processId();
    QVERIFY2(draw_lines(out.filePath("chain_1.csv")) >= 200, qPrintable(QString::fromUtf8(rank0.readAll())));
    const QList<qint64> children = children_of(parent);
    QCOMPARE(children.size(), 1);
    const qint64 rank1 = children.front();
    QCOMPARE(::kill(static_cast<pid_t>(rank1), SIGKILL), 0);
    QElapsedTimer elapsed;
    elapsed.start();
    QVERIFY(rank0.waitForFinished(30000));  // the dist-timeout bounds it; the kill is seen at once
    const QString said = QString::fromUtf8(rank0.readAll());
    QCOMPARE(rank0.exitCode(), 1);
    QVERIFY2(said.contains("rank 1 of 2 stopped responding"), qPrintable(said));
    QVERIFY2(said.contains("pid " + QString::number(rank1) + ") was killed by signal 9"), qPrintable(said));
    qInfo("rank 0 exited %lld ms after the kill", static_cast<long long>(elapsed.elapsed()));
    QVERIFY(!alive(rank1));
    QVERIFY(children_of(parent).isEmpty());
    // The draws written so far are a valid chain file.
    const Outcome summary = run({"summary", out.filePath("chain_1.csv")}, kTimeout);
    QVERIFY2(summary.exit_code == 0, qPrintable(summary.output));
    QVERIFY2(summary.output.contains("beta[1]"), qPrintable(summary.output));
    // And the project says why the run failed.
    store::Project recorded(project.toStdString());
    const auto runs = recorded.runs();
    QCOMPARE(runs.size(), size_t{1});
    QCOMPARE(runs[0].status, store::RunStatus::failed);
    QVERIFY2(QString::fromStdString(runs[0].error_message).contains("rank 1 of 2 stopped responding"),
             runs[0].error_message.c_str());
  }

  void aHungRankIsGivenUpAfterTheTimeout() {
    QTemporaryDir folder, out;
    QProcess rank0;
    start_long_run(rank0, folder, out, 100, {"--dist-timeout", "3"});
    const QList<qint64> children = children_of(rank0.processId());
    QCOMPARE(children.size(), 1);
    QCOMPARE(::kill(static_cast<pid_t>(children.front()), SIGSTOP), 0);
    QElapsedTimer elapsed;
    elapsed.start();
    QVERIFY(rank0.waitForFinished(30000));
    const QString said = QString::fromUtf8(rank0.readAll());
    QCOMPARE(rank0.exitCode(), 1);
    QVERIFY2(said.contains("rank 1 of 2 stopped responding"), qPrintable(said));
    qInfo("rank 0 exited %lld ms after the stop (timeout 3 s)", static_cast<long long>(elapsed.elapsed()));
    QVERIFY(!alive(children.front()));  // rank 0 ended its own child
  }
};

QTEST_GUILESS_MAIN(TestVariateDistributed)
#include "tst_variate_distributed.moc"
