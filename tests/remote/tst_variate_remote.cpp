// `variate sample|fit --worker`, `attach`, `jobs` and `cancel` against a `variate worker` on
// 127.0.0.1 (port chosen by the system), as a user runs them: a remote run writes the files
// a local run writes; a killed client reattaches and gets every draw once, in order; a
// killed worker is reported within the heartbeat timeout with the draws received kept;
// TLS with a certificate made at test time; a worker that refuses to listen in the clear
// on another address. Every process runs under a timeout and only the test's own
// processes are signalled, by PID.

#include <signal.h>

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest/QtTest>

#include "tests/app/run_program.h"
#include "tests/support/loopback_worker.h"
#include "engine/store/project.h"

using namespace app_test;
using remote_test::LoopbackWorker;
namespace store = variate::store;

namespace {

const QString kRadon = QStringLiteral(QT_TESTCASE_SOURCEDIR "/../projects/radon/");
constexpr int kTimeout = 300000;  // ms, for every process

QStringList eight_schools(const QString& seed = "11") {
  return {kEightSchools + "eight_schools.vmod", "--data", kEightSchools + "data.json", "--chains", "2",
          "--warmup", "150", "--draws", "200", "--seed", seed};
}

// A radon run that lasts a few seconds: long enough to kill something in the middle.
QStringList long_radon() {
  return {kRadon + "radon.vmod", "--data", kRadon + "data.json", "--chains", "2", "--warmup", "1000",
          "--draws", "4000", "--seed", "5"};
}

// A run that a test cancels: too long to end by itself before the cancel arrives.
QStringList endless_radon() {
  return {kRadon + "radon.vmod", "--data", kRadon + "data.json", "--chains", "2", "--warmup", "1000",
          "--draws", "1000000", "--seed", "5"};
}

// Waits (at most a minute) until `path` holds at least `rows` draws.
bool wait_for_rows(const QString& path, int rows, QProcess& process) {
  QElapsedTimer timer;
  timer.start();
  while (timer.elapsed() < 60000 && process.state() != QProcess::NotRunning) {
    if (draw_lines(path) >= rows) return true;
    QTest::qWait(50);
  }
  return draw_lines(path) >= rows;
}

QString job_id_in(const QString& output) {
  return QRegularExpression("job ([0-9a-f]{16}) on").match(output).captured(1);
}

}  // namespace

class TestVariateRemote : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(folder_.isValid());
    worker_ = std::make_unique<LoopbackWorker>(VARIATE_EXECUTABLE, folder_.path());
    QVERIFY2(!worker_->address().isEmpty(), qPrintable(worker_->errors()));
  }
  void cleanupTestCase() { worker_.reset(); }

  void remoteSampleWritesWhatALocalRunWrites() {
    const QString local = folder_.path() + "/local", remote = folder_.path() + "/remote";
    const Outcome here = run(QStringList{"sample"} + eight_schools() +
                                 QStringList{"--output", local, "--summary-json", local + ".json", "--project", local + ".variate"},
                             kTimeout);
    QCOMPARE(here.exit_code, 0);
    const Outcome there = run(QStringList{"sample"} + eight_schools() +
                                  QStringList{"--output", remote, "--summary-json", remote + ".json", "--project",
                                              remote + ".variate", "--worker", worker_->address(), "--token-file",
                                              worker_->token_file()},
                              kTimeout);
    QVERIFY2(there.exit_code == 0, qPrintable(there.output));
    QVERIFY(!job_id_in(there.output).isEmpty());
    // Counted from the draws received (a worker's chains arrive without their positions).
    QVERIFY2(there.output.contains(": 2 chains, each with 150 warmup and 200 draws; seed 11"), qPrintable(there.output));
    for (const QString chain : {"/chain_1.csv", "/chain_2.csv"}) {
      QCOMPARE(draws_of(remote + chain), draws_of(local + chain));
      QCOMPARE(draw_lines(remote + chain), 200);
    }
    QCOMPARE(read_json(remote + ".json")["parameters"], read_json(local + ".json")["parameters"]);
    // The project records the same run: the same draws, and where it ran.
    store::Project a(local.toStdString() + ".variate"), b(remote.toStdString() + ".variate");
    const auto run_a = a.runs().back().id, run_b = b.runs().back().id;
    const auto draws_a = a.draws(run_a), draws_b = b.draws(run_b);
    QCOMPARE(draws_b.size(), draws_a.size());
    for (size_t chain = 0; chain < draws_a.size(); ++chain) {
      QCOMPARE(draws_b[chain].rows, draws_a[chain].rows);
      QVERIFY(draws_b[chain].values == draws_a[chain].values);
    }
    QVERIFY(b.run(run_b).config_json.find("\"worker\"") != std::string::npos);
  }

  // SBC with a loopback worker taking replications beside this process's one thread: the
  // same ranks as the replications fitted here alone.
  void sbcReplicationsOnAWorker() {
    const QString sbc = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/sbc/");
    const QStringList model = {"sbc",
                               sbc + "logistic.vmod",
                               "--data",
                               sbc + "logistic.json",
                               "--replications",
                               "8",
                               "--seed",
                               "3",
                               "--parallel",
                               "1",
                               "--quiet"};
    const QString here = folder_.path() + "/sbc_here", there = folder_.path() + "/sbc_there";
    const Outcome local = run(model + QStringList{"--output", here}, kTimeout);
    QVERIFY2(local.exit_code == 0, qPrintable(local.output));
    const Outcome remote = run(
        model + QStringList{"--output", there, "--worker", worker_->address(), "--token-file", worker_->token_file()},
        kTimeout);
    QVERIFY2(remote.exit_code == 0, qPrintable(remote.output));
    QCOMPARE(lines_of(there + "/ranks.csv"), lines_of(here + "/ranks.csv"));
    QCOMPARE(lines_of(there + "/ranks.csv").size(), 9);
    const Outcome jobs = run({"jobs", "--worker", worker_->address(), "--token-file", worker_->token_file()}, kTimeout);
    QVERIFY2(jobs.output.contains("logistic.vmod"), qPrintable(jobs.output));  // the worker fitted some
    const Outcome refused = run(model + QStringList{"--worker", worker_->address()}, kTimeout);
    QCOMPARE(refused.exit_code, 1);
    QVERIFY2(refused.output.contains("--worker needs --token-file"), qPrintable(refused.output));
  }

  // A job whose density falls back to LibTorch records why, as a local run does.
  void aRemoteRunRecordsWhyItRanOnLibTorch() {
    QStringList notes;
    for (const bool remote : {false, true}) {
      const QString out = folder_.path() + (remote ? "/float32_remote" : "/float32_local");
      QStringList arguments = QStringList{"sample"} + eight_schools() +
                              QStringList{"--dtype", "float32", "--output", out, "--project", out + ".variate"};
      if (remote) arguments << "--worker" << worker_->address() << "--token-file" << worker_->token_file();
      const Outcome outcome = run(arguments, kTimeout);
      QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
      store::Project project(out.toStdString() + ".variate");
      const QJsonObject config =
          QJsonDocument::fromJson(QByteArray::fromStdString(project.run(project.runs().back().id).config_json))
              .object();
      QCOMPARE(config["backend_used"].toString(), QString("torch"));
      notes << config["backend_note"].toString();
    }
    QVERIFY2(notes[0].contains("float64 only"), qPrintable(notes[0]));
    QCOMPARE(notes[1], notes[0]);
  }

  // A worker runs a job's --nproc ranks on its host: the same files as --nproc 2 here.
  void remoteRunOnSeveralProcesses() {
    const QString local = folder_.path() + "/ranks_local", remote = folder_.path() + "/ranks_remote";
    const QStringList radon = {"sample", kRadon + "radon.vmod", "--data", kRadon + "data.json", "--chains", "1",
                               "--warmup", "100", "--draws", "100", "--seed", "2", "--nproc", "2", "--quiet"};
    QCOMPARE(run(radon + QStringList{"--output", local}, kTimeout).exit_code, 0);
    const Outcome there = run(radon + QStringList{"--output", remote, "--summary-json", remote + ".json", "--worker",
                                                  worker_->address(), "--token-file", worker_->token_file()},
                              kTimeout);
    QVERIFY2(there.exit_code == 0, qPrintable(there.output));
    QVERIFY2(there.output.contains("running on 2 processes"), qPrintable(there.output));
    QCOMPARE(draws_of(remote + "/chain_1.csv"), draws_of(local + "/chain_1.csv"));
    QCOMPARE(read_json(remote + ".json")["ranks"].toInt(), 2);
  }

  void remoteFitGivesTheSameElboTrace() {
    const QString local = folder_.path() + "/fit_local", remote = folder_.path() + "/fit_remote";
    const QStringList fit = {"fit", kEightSchools + "eight_schools.vmod", "--data", kEightSchools + "data.json",
                             "--seed", "3", "--output-draws", "300"};
    const Outcome here = run(fit + QStringList{"--output", local, "--summary-json", local + ".json"}, kTimeout);
    QCOMPARE(here.exit_code, 0);
    const Outcome there = run(fit + QStringList{"--output", remote, "--summary-json", remote + ".json", "--worker",
                                                worker_->address(), "--token-file", worker_->token_file()},
                              kTimeout);
    QVERIFY2(there.exit_code == 0, qPrintable(there.output));
    const auto trace = [](const QString& output) {
      QStringList lines;
      for (const QString& line : output.split('\n')) {
        if (line.contains("ELBO") || line.contains("eta =") || QRegularExpression("^\\s+\\d+\\s+-?\\d").match(line).hasMatch()) lines << line;
      }
      return lines;
    };
    QVERIFY(trace(here.output).size() > 3);
    QCOMPARE(trace(there.output), trace(here.output));
    QCOMPARE(draws_of(remote + "/variational.csv"), draws_of(local + "/variational.csv"));
    QCOMPARE(read_json(remote + ".json")["variational"].toObject()["elbo"],
             read_json(local + ".json")["variational"].toObject()["elbo"]);
  }

  // Kill -9 of the client mid-run; the job goes on; `attach` gets every draw once, in order.
  void attachAfterTheClientWasKilled() {
    const QString local = folder_.path() + "/long_local", first = folder_.path() + "/long_first",
                  again = folder_.path() + "/long_again";
    QCOMPARE(run(QStringList{"sample"} + long_radon() + QStringList{"--output", local, "--quiet"}, kTimeout).exit_code, 0);
    QProcess client;
    client.setProcessChannelMode(QProcess::MergedChannels);
    client.start(VARIATE_EXECUTABLE, QStringList{"sample"} + long_radon() +
                                         QStringList{"--output", first, "--worker", worker_->address(), "--token-file",
                                                     worker_->token_file()});
    QVERIFY(wait_for_rows(first + "/chain_1.csv", 50, client));
    ::kill(static_cast<pid_t>(client.processId()), SIGKILL);
    client.waitForFinished(10000);
    const QString job = job_id_in(QString::fromUtf8(client.readAll()));
    QVERIFY(!job.isEmpty());
    QVERIFY(draw_lines(first + "/chain_1.csv") < 4000);  // killed mid-run

    const Outcome attached = run({"attach", job, "--worker", worker_->address(), "--token-file", worker_->token_file(),
                                  "--output", again, "--quiet"},
                                 kTimeout);
    QVERIFY2(attached.exit_code == 0, qPrintable(attached.output));
    QVERIFY2(attached.output.contains(": 2 chains, each with 1000 warmup and 4000 draws; seed 5"), qPrintable(attached.output));
    for (const QString chain : {"/chain_1.csv", "/chain_2.csv"}) {
      QCOMPARE(draw_lines(again + chain), 4000);
      QCOMPARE(draws_of(again + chain), draws_of(local + chain));
    }
    const Outcome jobs = run({"jobs", "--worker", worker_->address(), "--token-file", worker_->token_file()}, kTimeout);
    QVERIFY(jobs.output.contains(QRegularExpression(job + "\\s+finished")));
    // The table as printed: its header, then one row per job, every count a count.
    const QStringList rows = jobs.output.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(rows.value(0), QStringLiteral("job               state        command submitted            events   model"));
    const QRegularExpression row("^[0-9a-f]{16}  (queued|running|paused|finished|stopped|failed|interrupted) +"
                                 "(sample|fit) +[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}  [0-9]{1,7} +\\S");
    for (const QString& line : rows.mid(1)) QVERIFY2(row.match(line).hasMatch(), qPrintable(line));
  }

  void cancelStopsAJobKeepingItsDraws() {
    const QString out = folder_.path() + "/cancelled";
    QProcess client;
    client.setProcessChannelMode(QProcess::MergedChannels);
    client.start(VARIATE_EXECUTABLE, QStringList{"sample"} + endless_radon() +
                                         QStringList{"--output", out, "--worker", worker_->address(), "--token-file",
                                                     worker_->token_file()});
    QVERIFY(wait_for_rows(out + "/chain_1.csv", 20, client));
    const QString job = job_id_in(QString::fromUtf8(client.readAll()));
    const Outcome cancelled = run({"cancel", job, "--worker", worker_->address(), "--token-file", worker_->token_file()}, kTimeout);
    QVERIFY2(cancelled.exit_code == 0, qPrintable(cancelled.output));
    // The state after the cancel, and who cancelled it.
    const QString by = "cancelled by " + qEnvironmentVariable("USER", "someone") + "@" + QSysInfo::machineHostName();
    QVERIFY2(cancelled.output.contains("job " + job + ": stopped (" + by + ")"), qPrintable(cancelled.output));
    // The submitting client did not ask for it: it says so and fails, keeping its draws.
    QVERIFY(client.waitForFinished(kTimeout));
    const QString said = QString::fromUtf8(client.readAll());
    QVERIFY2(client.exitCode() != 0, qPrintable(said));
    QVERIFY2(said.contains("job " + job + " on " + worker_->address() + ": " + by), qPrintable(said));
    QVERIFY2(!said.contains("Inference for"), qPrintable(said));
    QVERIFY(draw_lines(out + "/chain_1.csv") > 0);
    QVERIFY(draw_lines(out + "/chain_1.csv") < 1000000);
  }

  void badCredentialsRunNothing() {
    const QString wrong = remote_test::write_token(folder_.path(), "wrong.token", "not-the-token-at-all");
    const int before = jobCount();
    const Outcome refused = run(QStringList{"sample"} + eight_schools() +
                                    QStringList{"--worker", worker_->address(), "--token-file", wrong},
                                kTimeout);
    QVERIFY(refused.exit_code != 0);
    QVERIFY2(refused.output.contains("refused the token"), qPrintable(refused.output));
    // A token file others can read is refused before anything is sent.
    QFile::setPermissions(wrong, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther);
    const Outcome open = run(QStringList{"sample"} + eight_schools() +
                                 QStringList{"--worker", worker_->address(), "--token-file", wrong},
                             kTimeout);
    QVERIFY(open.exit_code != 0);
    QVERIFY2(open.output.contains("readable or writable by others"), qPrintable(open.output));
    QCOMPARE(jobCount(), before);
  }

  // A data file that names an IDX file beside it: the client uploads that file too, and
  // the remote run draws what the local one draws.
  void idxFilesTheDataNamesGoUpWithIt() {
    const QString here = folder_.path() + "/idx";
    QDir().mkpath(here);
    QByteArray labels("\x00\x00\x08\x01\x00\x00\x00\x06", 8);
    labels += QByteArray("\x03\x01\x04\x01\x05\x09", 6);
    for (const auto& [name, bytes] : {std::pair<QString, QByteArray>{"labels-idx1-ubyte", labels},
                                      {"m.vmod", "data N: int\ndata labels: int[N]\nrate ~ Gamma(2, 1)\nlabels ~ Poisson(rate)\n"},
                                      {"d.json", R"({"N": 6, "labels": {"idx_labels": "labels-idx1-ubyte"}})"}}) {
      QFile file(here + "/" + name);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(bytes);
    }
    const QStringList run_arguments = {"sample", here + "/m.vmod", "--data", here + "/d.json", "--seed", "4", "--chains", "1",
                                       "--warmup", "100", "--draws", "100"};
    const Outcome local = run(run_arguments + QStringList{"--output", here + "/local"}, kTimeout);
    QVERIFY2(local.exit_code == 0, qPrintable(local.output));
    const Outcome remote = run(run_arguments + QStringList{"--output", here + "/remote", "--worker", worker_->address(),
                                                          "--token-file", worker_->token_file()},
                               kTimeout);
    QVERIFY2(remote.exit_code == 0, qPrintable(remote.output));
    QCOMPARE(draws_of(here + "/remote/chain_1.csv"), draws_of(here + "/local/chain_1.csv"));
    QCOMPARE(draw_lines(here + "/remote/chain_1.csv"), 100);
  }

  // Raw random bytes (`head -c 32 /dev/urandom` without an encoding) or a short token are
  // refused when read, by the client and the worker alike, and never printed.
  void tokensAreCheckedWhenRead() {
    const QString raw = remote_test::write_token(folder_.path(), "raw.token", QByteArray("\x9c\x01zq\x80secret-bytes\x07\xff", 17));
    const QString brief = remote_test::write_token(folder_.path(), "short.token", "abc123xyz");
    const int before = jobCount();
    for (const QString& file : {raw, brief}) {
      const Outcome client = run(QStringList{"sample"} + eight_schools() +
                                     QStringList{"--worker", worker_->address(), "--token-file", file},
                                 kTimeout);
      QVERIFY(client.exit_code != 0);
      QVERIFY2(client.output.contains("the token in '" + file + "'"), qPrintable(client.output));
      for (const QString& secret : {"secret-bytes", "abc123xyz", "Bearer"}) {
        QVERIFY2(!client.output.contains(secret), qPrintable(client.output));
      }
      const Outcome worker = run({"worker", "--listen", "127.0.0.1:0", "--token-file", file, "--jobs-dir",
                                  folder_.path() + "/token-jobs"},
                                 kTimeout);
      QCOMPARE(worker.exit_code, 1);
      QVERIFY2(worker.output.contains("the token in '" + file + "'"), qPrintable(worker.output));
    }
    QCOMPARE(jobCount(), before);
  }

  // A second worker on a jobs folder would take the first's running jobs for leftovers.
  void oneWorkerPerJobsFolder() {
    const Outcome second = run({"worker", "--listen", "127.0.0.1:0", "--token-file", worker_->token_file(),
                                "--jobs-dir", folder_.path() + "/jobs"},
                               kTimeout);
    QCOMPARE(second.exit_code, 1);
    QVERIFY2(second.output.contains("another worker (PID " + QString::number(worker_->pid()) + ")"),
             qPrintable(second.output));
  }

  // TLS files are read and checked first: the message names the file and its fault.
  void tlsFilesAreChecked() {
    QTemporaryDir other;
    QVERIFY(remote_test::make_certificate(folder_.path()) && remote_test::make_certificate(other.path()));
    const QString cert = folder_.path() + "/cert.pem", key = folder_.path() + "/key.pem";
    const QString garbage = folder_.path() + "/garbage.pem";
    QFile file(garbage);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("not a certificate\n");
    file.close();
    const QString jobs = folder_.path() + "/tls-jobs";
    const auto worker = [&](const QString& c, const QString& k) {
      return run({"worker", "--listen", "127.0.0.1:0", "--token-file", worker_->token_file(), "--jobs-dir", jobs,
                  "--tls-cert", c, "--tls-key", k},
                 kTimeout);
    };
    const struct {
      Outcome outcome;
      QString message;
    } cases[] = {
        {worker(garbage, key), "--tls-cert '" + garbage + "' holds no PEM certificate"},
        {worker(key, key), "--tls-cert '" + key + "' is a private key, not a certificate"},
        {worker(cert, cert), "--tls-key '" + cert + "' holds no PEM private key"},
        {worker(cert, other.path() + "/key.pem"),
         "--tls-key '" + other.path() + "/key.pem' is not the key of the certificate in --tls-cert '" + cert + "'"},
        {worker(cert, folder_.path() + "/missing.pem"), "--tls-key '" + folder_.path() + "/missing.pem': cannot read it"},
        {run({"jobs", "--worker", worker_->address(), "--token-file", worker_->token_file(), "--tls-ca", garbage}, kTimeout),
         "--tls-ca '" + garbage + "' holds no PEM certificate"},
    };
    for (const auto& c : cases) {
      QVERIFY(c.outcome.exit_code != 0);
      QVERIFY2(c.outcome.output.contains(c.message), qPrintable(c.outcome.output));
    }
  }

  void tlsWorker() {
    QVERIFY(remote_test::make_certificate(folder_.path()));
    QTemporaryDir jobs;
    LoopbackWorker secure(VARIATE_EXECUTABLE, jobs.path(),
                          {"--tls-cert", folder_.path() + "/cert.pem", "--tls-key", folder_.path() + "/key.pem"});
    QVERIFY2(!secure.address().isEmpty(), qPrintable(secure.errors()));
    const QString out = folder_.path() + "/tls";
    const Outcome over_tls = run(QStringList{"sample"} + eight_schools() +
                                     QStringList{"--output", out, "--worker", secure.address(), "--token-file",
                                                 secure.token_file(), "--tls-ca", folder_.path() + "/cert.pem"},
                                 kTimeout);
    QVERIFY2(over_tls.exit_code == 0, qPrintable(over_tls.output));
    QCOMPARE(draw_lines(out + "/chain_1.csv"), 200);
    // In the clear to a TLS worker: refused, and nothing runs.
    const Outcome plain = run(QStringList{"sample"} + eight_schools() +
                                  QStringList{"--worker", secure.address(), "--token-file", secure.token_file(),
                                              "--heartbeat-timeout", "2"},
                              kTimeout);
    QVERIFY(plain.exit_code != 0);
    QVERIFY2(plain.output.contains("cannot reach"), qPrintable(plain.output));
    const Outcome jobs_there = run({"jobs", "--worker", secure.address(), "--token-file", secure.token_file(),
                                    "--tls-ca", folder_.path() + "/cert.pem"},
                                   kTimeout);
    QVERIFY2(jobs_there.output.count(" finished ") == 1, qPrintable(jobs_there.output));
  }

  void noCleartextOnOtherAddresses() {
    const QString token = remote_test::write_token(folder_.path(), "listen.token", "a-token-long-enough");
    const Outcome refused = run({"worker", "--listen", "0.0.0.0:0", "--token-file", token}, kTimeout);
    QCOMPARE(refused.exit_code, 1);
    QVERIFY(refused.output.contains("--tls-cert"));
  }

  // Kill -9 of the worker mid-run: the client says so within its heartbeat timeout and
  // keeps what it received (CSV rows, the project's draws, the run interrupted).
  void killedWorkerIsReported() {
    QTemporaryDir jobs;
    LoopbackWorker doomed(VARIATE_EXECUTABLE, jobs.path());
    QVERIFY(!doomed.address().isEmpty());
    const QString out = folder_.path() + "/orphan";
    QProcess client;
    client.setProcessChannelMode(QProcess::MergedChannels);
    client.start(VARIATE_EXECUTABLE, QStringList{"sample"} + long_radon() +
                                         QStringList{"--output", out, "--project", out + ".variate", "--worker",
                                                     doomed.address(), "--token-file", doomed.token_file(),
                                                     "--heartbeat-timeout", "3"});
    QVERIFY(wait_for_rows(out + "/chain_1.csv", 50, client));
    QElapsedTimer since_kill;
    doomed.kill();
    since_kill.start();
    QVERIFY(client.waitForFinished(kTimeout));
    qInfo("the client reported the killed worker after %lld ms (heartbeat timeout 3 s)", since_kill.elapsed());
    const QString output = QString::fromUtf8(client.readAll());
    QVERIFY(client.exitCode() != 0);
    QVERIFY2(output.contains("is gone"), qPrintable(output));
    const int rows = draw_lines(out + "/chain_1.csv");
    QVERIFY(rows >= 50);
    store::Project project(out.toStdString() + ".variate");
    const auto id = project.runs().back().id;
    // Interrupted, not failed: the job may go on there, and the studio follows it again when
    // it opens the project.
    QCOMPARE(project.run(id).status, store::RunStatus::interrupted);
    QVERIFY(project.chain_draws(id, 0).rows >= 50);
  }

 private:
  int jobCount() {
    const Outcome jobs = run({"jobs", "--worker", worker_->address(), "--token-file", worker_->token_file()}, kTimeout);
    return jobs.output.count(QRegularExpression("\\n[0-9a-f]{16} "));
  }

  QTemporaryDir folder_;
  std::unique_ptr<LoopbackWorker> worker_;
};

QTEST_GUILESS_MAIN(TestVariateRemote)
#include "tst_variate_remote.moc"
