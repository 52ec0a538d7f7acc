// A deep model (the Fashion-MNIST VAE) in the studio, through its real widgets: the canvas
// draws its networks with their layers and the guide's read as a dashed edge; the Run
// panel shows a training's settings; the Run action trains it on the engine thread with
// the ELBO and the reconstructions live; the project keeps the run with its epochs and a
// checkpoint, Stop keeps the weights and Continue finishes the training from them after
// the project is reopened, and so does it after the studio was killed; a 2-D latent
// space is drawn coloured by label.
// The data are 512 training and 256 held-out images of Debian's dataset-fashion-mnist.

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QtTest/QtTest>

#include "engine/store/project.h"

#include "engine/services/setting_table.h"
#include "tests/ui/studio_test_support.h"
#include "ui/app/main_window.h"
#include "ui/app/run_coordinator.h"
#include "ui/canvas/canvas_model.h"
#include "ui/canvas/canvas_panel.h"
#include "ui/canvas/edge_item.h"
#include "ui/canvas/model_canvas.h"
#include "ui/canvas/node_item.h"
#include "ui/canvas/node_properties_panel.h"
#include "ui/docks/elbo_panel.h"
#include "ui/docks/reconstructions_panel.h"
#include "ui/docks/run_config_panel.h"
#include "ui/document/project_document.h"
#include "ui/plots/image_grid_widget.h"
#include "ui/plots/latent_scatter.h"

namespace services = variate::services;

using namespace variate::ui;

namespace {

const QString kData = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/fashion_vae/");

// projects/fashion_vae's model with the small data sets beside it, as `variate fit`
// reads them (train.json, test.json); `edit` may change the model text.
QString vaeFolder(const QTemporaryDir& dir, const std::function<QString(QString)>& edit = nullptr) {
  const QString folder = dir.path() + "/vae";
  QDir().mkpath(folder);
  QFile model(studio_test::kProjects + "fashion_vae/fashion_vae.vmod");
  if (!model.open(QIODevice::ReadOnly)) return {};
  QString text = QString::fromUtf8(model.readAll());
  if (edit) text = edit(text);
  QFile copy(folder + "/fashion_vae.vmod");
  if (!copy.open(QIODevice::WriteOnly)) return {};
  copy.write(text.toUtf8());
  for (const QString name : {"train.json", "test.json"}) {
    QFile::copy(kData + name, folder + "/" + name);
  }
  return folder;
}

bool samePixels(const QList<QImage>& a, const QList<QImage>& b) { return a == b; }

}  // namespace

class TestStudioDeep : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void canvasDrawsTheNetworksAndTheGuide() {
    QTemporaryDir dir;
    MainWindow window;
    window.setQuietErrors(true);
    window.resize(1500, 950);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openPath(vaeFolder(dir) + "/fashion_vae.vmod"));
    // The model's sibling data sets: the training rows are the run's, test the held-out.
    QCOMPARE(window.document()->currentDataSet()->name, QString("train"));
    QCOMPARE(window.document()->runConfig().settings.get(services::setting::test_data), std::optional<std::string>("test"));

    auto* panel = qobject_cast<CanvasPanel*>(window.docks().dock("canvasDock")->widget());
    QVERIFY(panel && panel->canvas());
    const NodeItem* decoder = panel->canvas()->nodeItem("decoder");
    const NodeItem* encoder = panel->canvas()->nodeItem("encoder");
    QVERIFY(decoder && encoder);
    QCOMPARE(decoder->node().kind, CanvasNode::Kind::Network);
    QCOMPARE(encoder->node().kind, CanvasNode::Kind::Network);
    QCOMPARE(decoder->node().network, QString("mlp 20 → 400 → 784, relu"));
    QCOMPARE(encoder->node().network, QString("mlp 784 → 400 → 40, relu"));
    QVERIFY(decoder->toolTip().contains("mlp 20 → 400 → 784"));
    QCOMPARE(panel->canvas()->nodeItem("z")->node().guideText,
             QString("Normal(encoder[:, 1:20], exp(encoder[:, 21:40]))"));
    // The guide's read is dashed and ends at z's top, not at its prior's slots; the
    // generative edges are solid and go down the graph.
    int guides = 0;
    for (QGraphicsItem* item : panel->canvas()->scene()->items()) {
      if (item->type() != EdgeItem::Type) continue;
      const auto* edge = static_cast<EdgeItem*>(item);
      if (edge->edge().from == "encoder" && edge->edge().to == "z") {
        ++guides;
        QVERIFY(edge->edge().guide);
        QCOMPARE(edge->pen().style(), Qt::DashLine);
        QVERIFY(edge->slot().isEmpty());
      } else {
        QVERIFY2(!edge->edge().guide, qPrintable(edge->edge().from + " → " + edge->edge().to));
      }
    }
    QCOMPARE(guides, 1);
    QVERIFY(panel->canvas()->nodeItem("z")->pos().y() < decoder->pos().y());
    QVERIFY(decoder->pos().y() < panel->canvas()->nodeItem("x")->pos().y());

    // Selecting a network names it in the properties panel (the dock is narrow in the
    // training layout: widened, the properties show).
    window.docks().dock("canvasDock")->setFloating(true);
    window.docks().dock("canvasDock")->resize(1200, 700);
    QVERIFY(studio_test::waitFor([&] { return panel->properties()->isVisible(); }, 5000));
    panel->model()->setSelection({"decoder"});
    QVERIFY(studio_test::waitFor(
        [&] {
          auto* layers = panel->properties()->findChild<QLabel*>("networkLabel");
          return layers && layers->text() == "mlp 20 → 400 → 784, relu";
        },
        5000));

    // The Run panel shows a training's settings, not a sampler's.
    RunConfigPanel* settings = window.docks().runConfig;
    QVERIFY(studio_test::waitFor([&] { return window.document()->modelCheck().deep; }, 10000));
    QVERIFY(settings->findChild<QWidget*>("epochs")->isVisibleTo(settings));
    QVERIFY(settings->findChild<QWidget*>("learning_rate")->isVisibleTo(settings));
    QVERIFY(!settings->findChild<QWidget*>("method")->isVisibleTo(settings));
    QVERIFY(!settings->findChild<QWidget*>("chains")->isVisibleTo(settings));
  }

  void trainingRunsLiveAndIsKept() {
    QTemporaryDir dir;
    QString path;
    qint64 runId = -1;
    {
      MainWindow window;
      window.setQuietErrors(true);
      window.resize(1500, 950);
      window.show();
      QVERIFY(QTest::qWaitForWindowExposed(&window));
      QVERIFY(window.openPath(vaeFolder(dir) + "/fashion_vae.vmod"));
      path = window.document()->filePath();
      QVERIFY(studio_test::waitFor([&] { return window.document()->modelCheck().deep; }, 10000));
      RunConfigPanel* settings = window.docks().runConfig;
      QVERIFY(studio_test::typeInto(settings, "epochs", "2"));
      QVERIFY(studio_test::typeInto(settings, "batch_size", "128"));
      QVERIFY(studio_test::choose(settings, "test_data_set", "test"));
      QCOMPARE(window.document()->runConfig().epochs(), 2);

      ReconstructionsPanel* pictures = window.docks().reconstructions;
      QList<QImage> first;
      connect(pictures, &ReconstructionsPanel::refreshed, this, [&] {
        if (first.isEmpty()) first = pictures->reconstructions()->images();
      });
      QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
      window.actions().run->trigger();
      QVERIFY(ended.wait(60000));
      const RunPtr run = window.document()->runs()->current();
      QVERIFY(run);
      QVERIFY2(run->status == RunStatus::Finished, qPrintable(run->message));
      QCOMPARE(run->config.method, services::Method::amortized);
      runId = run->id;
      // 512 rows in batches of 128: 4 steps an epoch.
      QCOMPARE(int(run->elbo.points.size()), 8);
      QCOMPARE(int(run->elbo.epochs.size()), 2);
      QVERIFY(run->elbo.epochs.back().heldoutElbo.has_value());

      ElboPanel* elbo = window.docks().elbo;
      QVERIFY(studio_test::waitFor(
          [&] { return elbo->plottedPoints() == 8 && elbo->plottedHeldout() == 2; }, 5000));

      // The images are the held-out rows, their reconstructions and prior samples, and
      // the training changed the reconstructions from the untrained networks' first ones.
      QVERIFY(studio_test::waitFor(
          [&] { return pictures->shown() && pictures->shown()->step == 8; }, 5000));
      QCOMPARE(pictures->originals()->images().size(), 12);
      QCOMPARE(pictures->originals()->images().front().size(), QSize(28, 28));
      QCOMPARE(pictures->reconstructions()->images().size(), 12);
      QCOMPARE(pictures->samples()->images().size(), 12);
      QCOMPARE(first.size(), 12);
      QVERIFY(!samePixels(first, pictures->reconstructions()->images()));
      QVERIFY(!pictures->latentScatter()->isVisible());  // z is 20-D

      variate::store::Project project(path.toStdString());
      QCOMPARE(project.run(runId).method, variate::store::RunMethod::amortized);
      QCOMPARE(project.run(runId).status, variate::store::RunStatus::finished);
      QCOMPARE(int(project.training_epochs(runId).size()), 2);
      QCOMPARE(int(project.elbo_trace(runId).size()), 8);
      const auto checkpoint = project.latest_checkpoint(runId);
      QVERIFY(checkpoint);
      QCOMPARE(checkpoint->step, int64_t(8));
      QVERIFY(!checkpoint->weights.empty());
    }
    // Reopened, the run is listed as a training with its ELBO curve and epochs.
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    QVERIFY(window.openPath(path));
    const RunPtr run = window.document()->runs()->current();
    QVERIFY(run && run->id == runId);
    QCOMPARE(run->config.method, services::Method::amortized);
    QCOMPARE(run->config.epochs(), 2);
    QVERIFY(studio_test::waitFor([&] { return window.document()->runs()->current()->drawsLoaded; },
                                 10000));
    QCOMPARE(int(window.document()->runs()->current()->elbo.points.size()), 8);
    QCOMPARE(int(window.document()->runs()->current()->elbo.epochs.size()), 2);
    QVERIFY(studio_test::waitFor([&] { return window.docks().elbo->plottedHeldout() == 2; }, 5000));
  }

  void stopKeepsTheWeightsAndContinueFinishes() {
    QTemporaryDir dir;
    QString path;
    qint64 runId = -1;
    int stoppedAt = 0;
    {
      MainWindow window;
      window.setQuietErrors(true);
      window.show();
      QVERIFY(window.openPath(vaeFolder(dir) + "/fashion_vae.vmod"));
      path = window.document()->filePath();
      RunConfig config = window.document()->runConfig();
      config.settings.set(services::setting::epochs, std::optional<int>(400));  // far more than the test waits for
      window.document()->setRunConfig(config);
      QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
      window.actions().run->trigger();
      QVERIFY(studio_test::waitFor(
          [&] {
            const RunPtr run = window.document()->runs()->current();
            return run && run->elbo.epochs.size() >= 2;
          },
          60000));
      QVERIFY(window.actions().stop->isEnabled());
      window.actions().stop->trigger();
      QVERIFY(ended.wait(60000));
      const RunPtr run = window.document()->runs()->current();
      QCOMPARE(run->status, RunStatus::Stopped);
      runId = run->id;
      stoppedAt = run->elbo.points.back().iteration;
      variate::store::Project project(path.toStdString());
      const auto checkpoint = project.latest_checkpoint(runId);
      QVERIFY(checkpoint);
      QCOMPARE(checkpoint->step, int64_t(stoppedAt));  // a stop hands over its checkpoint
    }
    // Reopened, Continue trains on from the checkpoint toward the run's own 400 epochs
    // (stopped again once it has gone on).
    {
      variate::store::Project project(path.toStdString());
      QVERIFY(project.run(runId).config_json.find("\"epochs\":400") != std::string::npos);
    }
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    QVERIFY(window.openPath(path));
    QVERIFY(studio_test::waitFor([&] { return window.document()->runs()->current()->drawsLoaded; },
                                 10000));
    QVERIFY(window.actions().runMore->isEnabled());
    QCOMPARE(window.actions().runMore->text().remove('&'), QString("Continue Training"));
    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    window.actions().runMore->trigger();
    QVERIFY(studio_test::waitFor(
        [&] {
          const RunPtr run = window.document()->runs()->current();
          return run && run->isActive() && run->elbo.points.size() > size_t(stoppedAt) + 8;
        },
        60000));
    window.actions().stop->trigger();
    QVERIFY(ended.wait(60000));
    const RunPtr run = window.document()->runs()->current();
    QCOMPARE(run->id, runId);
    QCOMPARE(run->status, RunStatus::Stopped);
    // One ELBO point per step, continuing where the checkpoint left off.
    for (size_t i = 0; i < run->elbo.points.size(); ++i) {
      QCOMPARE(run->elbo.points[i].iteration, int(i) + 1);
    }
    variate::store::Project project(path.toStdString());
    QCOMPARE(int(project.elbo_trace(runId).size()), int(run->elbo.points.size()));
    QCOMPARE(int(project.runs().size()), 1);
  }

  // kill -9 of the studio while it trains: reopened, the run is interrupted and Continue
  // Training goes on from its last checkpoint, redoing the steps after it.
  void killedTrainingContinuesFromItsCheckpoint() {
    QTemporaryDir dir;
    const QString folder = vaeFolder(dir);
    QProcess studio;
    studio.setProcessEnvironment(studio_test::childEnvironment(dir.path()));
    studio.start(VARIATE_STUDIO_EXECUTABLE,
                 {folder + "/fashion_vae.vmod", "--run-on-open", "--epochs", "1000", "--progress"});
    QVERIFY(studio.waitForStarted(30000));
    int steps = 0;
    QByteArray output;
    const bool training = studio_test::waitFor(
        [&] {
          output += studio.readAllStandardOutput();
          const QList<QByteArray> lines = output.trimmed().split('\n');
          const QList<QByteArray> words = lines.last().split(' ');
          if (words.size() == 3 && words[0] == "progress") steps = words[2].toInt();
          return steps > 14;  // past the checkpoints of three epochs' ends (4 steps each)
        },
        60000);
    QVERIFY2(training, qPrintable(studio.readAllStandardError()));
    studio.kill();
    QVERIFY(studio.waitForFinished(30000));

    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    QVERIFY(window.openPath(folder + "/fashion_vae.variate"));
    const qint64 id = window.document()->runs()->currentId();
    QCOMPARE(window.document()->runs()->current()->status, RunStatus::Interrupted);
    int64_t checkpointStep = 0;
    {
      variate::store::Project project((folder + "/fashion_vae.variate").toStdString());
      const auto checkpoint = project.latest_checkpoint(id);
      QVERIFY(checkpoint && checkpoint->step >= 12);
      checkpointStep = checkpoint->step;
    }
    QVERIFY(studio_test::waitFor([&] { return window.document()->runs()->current()->drawsLoaded; },
                                 10000));
    QVERIFY(window.actions().runMore->isEnabled());
    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    window.actions().runMore->trigger();
    QVERIFY(studio_test::waitFor(
        [&] {
          const RunPtr run = window.document()->runs()->current();
          return run->isActive() && run->elbo.points.size() > size_t(steps) + 4;
        },
        60000));
    window.actions().stop->trigger();
    QVERIFY(ended.wait(60000));
    const RunPtr run = window.document()->runs()->current();
    QCOMPARE(run->id, id);
    QCOMPARE(run->status, RunStatus::Stopped);
    for (size_t i = 0; i < run->elbo.points.size(); ++i) {
      QCOMPARE(run->elbo.points[i].iteration, int(i) + 1);
    }
    variate::store::Project project((folder + "/fashion_vae.variate").toStdString());
    QCOMPARE(int(project.elbo_trace(id).size()), int(run->elbo.points.size()));
    QVERIFY(project.latest_checkpoint(id)->step > checkpointStep);
  }

  void twoDimensionalLatentIsScatteredByLabel() {
    QTemporaryDir dir;
    const QString folder = vaeFolder(dir, [](QString text) {
      return text.replace("z[N, 20]", "z[N, 2]")
          .replace("mlp(x, 400, 40,", "mlp(x, 400, 4,")
          .replace("encoder[:, 1:20], exp(encoder[:, 21:40])",
                   "encoder[:, 1:2], exp(encoder[:, 3:4])");
    });
    MainWindow window;
    window.setQuietErrors(true);
    window.resize(1500, 950);
    window.show();
    QVERIFY(window.openPath(folder + "/fashion_vae.vmod"));
    RunConfig config = window.document()->runConfig();
    config.settings.set(services::setting::epochs, std::optional<int>(1));
    window.document()->setRunConfig(config);
    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    window.actions().run->trigger();
    QVERIFY(ended.wait(60000));
    QVERIFY2(window.document()->runs()->current()->status == RunStatus::Finished,
             qPrintable(window.document()->runs()->current()->message));
    LatentScatter* scatter = window.docks().reconstructions->latentScatter();
    QVERIFY(studio_test::waitFor([&] { return scatter->pointCount() == 256; }, 5000));
    QVERIFY(scatter->isVisibleTo(window.docks().reconstructions));
    QCOMPARE(scatter->labelCount(), 10);  // the held-out set's labels, each its own colour
  }
};

QTEST_MAIN(TestStudioDeep)
#include "tst_studio_deep.moc"
