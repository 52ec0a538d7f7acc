// `variate fit` on a model with networks (projects/fashion_vae, on a slice of Debian's
// Fashion-MNIST test images): training raises the held-out ELBO; 2 processes end with the
// weights of 1 process computing the same two gradient shards, to the bit; a training
// killed with SIGKILL continues from its project's last checkpoint with --resume, its ELBO
// curve continuing step by step, and ends with the weights of one never interrupted; a
// killed rank stops the other with its rank named and keeps the checkpoint; errors a user
// can make are reported. Every child has a timeout; the test signals only the processes it
// started (and their children), by PID.

#include <csignal>

#include <QtTest/QtTest>
#undef slots  // Qt's keyword breaks LibTorch's jit headers
#include <torch/serialize/input-archive.h>

#include "tests/app/run_program.h"
#include "engine/store/project.h"

using app_test::children_of;
using app_test::run;
namespace vs = variate::store;

namespace {

const QString kModel = QStringLiteral(QT_TESTCASE_SOURCEDIR "/../projects/fashion_vae/fashion_vae.vmod");
const QString kImages = QStringLiteral("/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz");
const QString kTrainingImages = QStringLiteral("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz");

QString write_slice(const QTemporaryDir& folder, const QString& name, int limit, const QString& images = kImages) {
  const QString path = folder.filePath(name);
  QFile file(path);
  file.open(QIODevice::WriteOnly);
  file.write(QString(R"({"x": {"idx_images": "%1", "limit": %2}})").arg(images).arg(limit).toUtf8());
  return path;
}

// Every tensor of an archive (modules nest their children's archives), by path.
void collect(torch::serialize::InputArchive& archive, const std::string& prefix,
             std::map<std::string, at::Tensor>& result) {
  for (const auto& key : archive.keys()) {
    at::Tensor t;
    torch::serialize::InputArchive child;
    if (archive.try_read(key, t)) {
      result[prefix + key] = t;
    } else if (archive.try_read(key, child)) {
      collect(child, prefix + key + ".", result);
    }
  }
}

std::map<std::string, at::Tensor> weights_in(const QString& path) {
  torch::serialize::InputArchive archive;
  archive.load_from(path.toStdString());
  std::map<std::string, at::Tensor> result;
  collect(archive, "", result);
  return result;
}

bool same_weights(const QString& a, const QString& b) {
  const auto x = weights_in(a), y = weights_in(b);
  if (x.size() != y.size() || x.size() != 8) return false;  // 4 layers' weights and biases
  for (const auto& [key, tensor] : x) {
    if (!y.count(key) || !at::equal(tensor, y.at(key))) return false;
  }
  return true;
}

// The first run's last epoch-end step and last ELBO step, or -1 (the file may not be
// there yet).
std::pair<int64_t, int64_t> progress(const QString& project) {
  try {
    if (!QFile::exists(project)) return {-1, -1};
    vs::Project p(project.toStdString());
    const auto runs = p.runs();
    if (runs.empty()) return {-1, -1};
    // An epoch's record commits with its checkpoint (and is cheap to read, unlike the
    // checkpoint's weights).
    const auto epochs = p.training_epochs(runs.front().id);
    const auto trace = p.elbo_trace(runs.front().id);
    return {epochs.empty() ? -1 : epochs.back().step, trace.empty() ? -1 : trace.back().iteration};
  } catch (const std::exception&) {
    return {-1, -1};
  }
}

// Starts `variate fit` with `arguments` and returns once the project holds an epoch's end
// (and checkpoint) after step `step` and ELBO points `beyond` steps after it (or the run
// ended, or a minute passed).
void start_until_checkpoint(QProcess& process, const QStringList& arguments, const QString& project, int64_t step,
                            int64_t beyond = 0) {
  process.setProcessChannelMode(QProcess::MergedChannels);
  process.start(VARIATE_EXECUTABLE, arguments);
  QVERIFY(process.waitForStarted());
  QDeadlineTimer deadline(60000);
  for (auto at = progress(project); (at.first < step || at.second < at.first + beyond) && !deadline.hasExpired() &&
                                    process.state() == QProcess::Running;
       at = progress(project)) {
    QTest::qWait(20);
  }
}

}  // namespace

class TestVariateDeep : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void trainingRaisesTheHeldOutElbo() {
    QTemporaryDir folder;
    const QString train = write_slice(folder, "train.json", 1280), test = write_slice(folder, "test.json", 300);
    const QString summary = folder.filePath("summary.json");
    const auto outcome = run({"fit", kModel, "--data", train, "--test-data", test, "--epochs", "3", "--seed", "1",
                              "--summary-json", summary}, 120000);
    QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
    QVERIFY2(outcome.output.contains("epoch 3/3: step 30, training ELBO"), qPrintable(outcome.output));
    QFile file(summary);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject fit = QJsonDocument::fromJson(file.readAll()).object()["amortized"].toObject();
    QCOMPARE(fit["status"].toString(), QString("finished"));
    QCOMPARE(fit["steps"].toInt(), 30);
    QCOMPARE(fit["networks"].toArray().size(), 2);
    QCOMPARE(fit["networks"].toArray()[1].toObject()["parameters"].toInt(), 20 * 400 + 400 + 400 * 784 + 784);
    // An untrained VAE scores about -543 nats per image (784 pixels at logits near 0).
    const double heldout = fit["heldout_elbo"].toDouble();
    QVERIFY2(heldout > -400 && heldout < -200, qPrintable(QString::number(heldout)));
  }

  void twoProcessesGiveTheWeightsOfOneWithTwoShards() {
    QTemporaryDir folder;
    const QString train = write_slice(folder, "train.json", 1280);
    const QStringList common{"fit", kModel, "--data", train, "--epochs", "20", "--max-steps", "100", "--seed", "4",
                             "--quiet"};
    const auto two = run(QStringList(common) << "--nproc" << "2" << "--save-weights" << folder.filePath("two.pt"), 120000);
    QVERIFY2(two.exit_code == 0, qPrintable(two.output));
    QVERIFY2(two.output.contains("2 processes"), qPrintable(two.output));
    const auto one = run(QStringList(common) << "--gradient-shards" << "2" << "--save-weights" << folder.filePath("one.pt"),
                         120000);
    QVERIFY2(one.exit_code == 0, qPrintable(one.output));
    const auto whole = run(QStringList(common) << "--save-weights" << folder.filePath("whole.pt"), 120000);
    QVERIFY2(whole.exit_code == 0, qPrintable(whole.output));
    QVERIFY(same_weights(folder.filePath("two.pt"), folder.filePath("one.pt")));
    // One gradient of the whole batch rounds differently: the bits differ.
    QVERIFY(!same_weights(folder.filePath("whole.pt"), folder.filePath("one.pt")));
  }

  void aKilledTrainingResumesFromItsCheckpoint() {
    // 400 steps an epoch (about 2 s): the ELBO points committed each second run ahead of
    // the epoch-end checkpoints, so the kill leaves points the checkpoint does not cover.
    QTemporaryDir folder;
    const QString train = write_slice(folder, "train.json", 51200, kTrainingImages);
    const QString project = folder.filePath("vae.variate");
    const QStringList common{"fit", kModel, "--data", train, "--epochs", "2", "--seed", "6", "--quiet"};
    const auto uninterrupted = run(QStringList(common) << "--save-weights" << folder.filePath("whole.pt"), 120000);
    QVERIFY2(uninterrupted.exit_code == 0, qPrintable(uninterrupted.output));

    QProcess process;
    start_until_checkpoint(process, QStringList(common) << "--project" << project, project, 400, 20);
    QVERIFY2(process.state() == QProcess::Running, "the training ended before the kill");
    QCOMPARE(::kill(static_cast<pid_t>(process.processId()), SIGKILL), 0);
    QVERIFY(process.waitForFinished(10000));
    int64_t last_point = 0, checkpoint = 0;
    {
      vs::Project p(project.toStdString());  // opening marks the run interrupted: its writer is gone
      const vs::RunInfo info = p.runs().front();
      QCOMPARE(info.status, vs::RunStatus::interrupted);
      QCOMPARE(info.method, vs::RunMethod::amortized);
      last_point = p.elbo_trace(info.id).back().iteration;
      checkpoint = p.latest_checkpoint(info.id)->step;
      QVERIFY2(last_point > checkpoint, qPrintable(QString("%1 %2").arg(last_point).arg(checkpoint)));
    }
    const auto resumed = run(QStringList(common) << "--project" << project << "--resume" << "1" << "--save-weights"
                                                 << folder.filePath("resumed.pt"), 120000);
    QVERIFY2(resumed.exit_code == 0, qPrintable(resumed.output));
    QVERIFY2(resumed.output.contains("continuing run 1 from its checkpoint after step " + QString::number(checkpoint)),
             qPrintable(resumed.output));
    vs::Project p(project.toStdString());
    const vs::RunInfo info = p.run(1);
    QCOMPARE(info.status, vs::RunStatus::finished);
    // The curve continues: one point per step, 1 to 800, none lost or doubled.
    const auto trace = p.elbo_trace(1);
    QCOMPARE(static_cast<int>(trace.size()), 800);
    for (size_t i = 0; i < trace.size(); ++i) QCOMPARE(trace[i].iteration, static_cast<int>(i + 1));
    QCOMPARE(static_cast<int>(p.training_epochs(1).size()), 2);
    qInfo("killed with ELBO points to step %lld, the checkpoint at step %lld", static_cast<long long>(last_point),
          static_cast<long long>(checkpoint));
    QVERIFY(same_weights(folder.filePath("whole.pt"), folder.filePath("resumed.pt")));
  }

  void aKilledRankStopsTheOtherAndKeepsTheCheckpoint() {
    QTemporaryDir folder;
    const QString train = write_slice(folder, "train.json", 1280);
    const QString project = folder.filePath("vae.variate");
    QProcess rank0;
    start_until_checkpoint(rank0, {"fit", kModel, "--data", train, "--epochs", "200", "--seed", "2", "--quiet",
                                   "--nproc", "2", "--project", project},
                           project, 10);
    QVERIFY(rank0.state() == QProcess::Running);
    const QList<qint64> children = children_of(rank0.processId());
    QCOMPARE(children.size(), 1);
    QCOMPARE(::kill(static_cast<pid_t>(children.front()), SIGKILL), 0);
    QVERIFY(rank0.waitForFinished(30000));
    const QString said = QString::fromUtf8(rank0.readAll());
    QCOMPARE(rank0.exitCode(), 1);
    QVERIFY2(said.contains("rank 1 of 2") && said.contains("killed by signal 9"), qPrintable(said));
    vs::Project p(project.toStdString());
    const vs::RunInfo info = p.run(1);
    QCOMPARE(info.status, vs::RunStatus::failed);
    QVERIFY2(QString::fromStdString(info.error_message).contains("--resume 1"), info.error_message.c_str());
    QVERIFY(p.latest_checkpoint(1).has_value());
  }

  void mistakesAreReported() {
    QTemporaryDir folder;
    const QString train = write_slice(folder, "train.json", 64);
    auto outcome = run({"sample", kModel, "--data", train}, 60000);
    QCOMPARE(outcome.exit_code, 1);
    QVERIFY2(outcome.output.contains("fashion_vae.vmod:14:7: error: 'z' is a guide: a model with networks or guides "
                                     "is fit with `variate fit`"),
             qPrintable(outcome.output));
    outcome = run({"check", kModel, "--data", train}, 60000);
    QCOMPARE(outcome.exit_code, 0);
    QVERIFY2(outcome.output.contains("64 rows (N)") && outcome.output.contains("z[N, 20]") &&
                 outcome.output.contains("decoder (mlp 20-400-784, relu, 322784 weights)"),
             qPrintable(outcome.output));
    outcome = run({"export", kModel, "--cpp", folder.filePath("exported")}, 60000);
    QCOMPARE(outcome.exit_code, 1);
    QVERIFY2(outcome.output.contains("a model with networks or guides is not exported"), qPrintable(outcome.output));
    outcome = run({"fit", QT_TESTCASE_SOURCEDIR "/../projects/eight_schools/eight_schools.vmod", "--data",
                   QT_TESTCASE_SOURCEDIR "/../projects/eight_schools/data.json", "--epochs", "3"},
                  60000);
    QCOMPARE(outcome.exit_code, 1);
    QVERIFY2(outcome.output.contains("apply to models with networks"), qPrintable(outcome.output));
    outcome = run({"fit", kModel, "--data", train, "--resume", "1"}, 60000);
    QCOMPARE(outcome.exit_code, 1);
    QVERIFY2(outcome.output.contains("--resume needs the --project"), qPrintable(outcome.output));
    // Pixel values that are not intensities.
    QFile bad(folder.filePath("bad.json"));
    bad.open(QIODevice::WriteOnly);
    bad.write(R"({"x": [[2, 0, 0], [0, 1, 0]]})");
    bad.close();
    outcome = run({"fit", kModel, "--data", folder.filePath("bad.json")}, 60000);
    QCOMPARE(outcome.exit_code, 1);
    QVERIFY2(outcome.output.contains("'x' has shape [2, 3], expected [2, 784]") || outcome.output.contains("[2, 3]"),
             qPrintable(outcome.output));
  }
};

QTEST_GUILESS_MAIN(TestVariateDeep)
#include "tst_variate_deep.moc"
