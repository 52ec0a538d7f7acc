// The studio as a user drives it: open eight schools, press Run on the toolbar, watch the
// traces grow batch by batch, stop, find the draws in the project file, reopen the
// project and find the run with the same summary. Also measures how long the UI event
// loop goes without running while NUTS samples (reported; asserted only when
// VARIATE_ASSERT_UI_LATENCY is set, since timing depends on the machine's load). And the
// Run panel's sampler options are what the run uses.

#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QToolBar>
#include <QtTest/QtTest>

#include "engine/services/setting_table.h"
#include "engine/store/project.h"
#include "engine/store/stored_run_summary.h"
#include "tests/ui/studio_test_support.h"
#include "ui/analysis/summary_service.h"
#include "ui/app/main_window.h"
#include "ui/app/run_coordinator.h"
#include "ui/app/run_status_label.h"
#include "ui/docks/diagnostics_panel.h"
#include "ui/docks/run_config_panel.h"
#include "ui/docks/sampler_stats_panel.h"
#include "ui/docks/trace_panel.h"
#include "ui/document/project_document.h"

namespace services = variate::services;

using namespace variate::ui;

namespace {

// Shows a window that keeps errors to itself and opens `path` in it, as a user would.
bool openShown(MainWindow& window, const QString& path) {
  window.setQuietErrors(true);
  window.show();
  return window.openPath(path);
}

// Longest gap between ticks of a 5 ms timer while it runs: how long the event loop stalled.
class StallMeter : public QObject {
 public:
  StallMeter() {
    connect(&timer_, &QTimer::timeout, this, [this] {
      if (last_.isValid()) worst_ = std::max(worst_, last_.restart());
      else last_.start();
    });
    timer_.start(5);
  }
  qint64 worstMs() const { return worst_; }

 private:
  QTimer timer_;
  QElapsedTimer last_;
  qint64 worst_ = 0;
};

QToolBar* toolBar(MainWindow& window) { return window.actions().toolBar; }



void click(MainWindow& window, QAction* action) {
  QWidget* button = toolBar(window)->widgetForAction(action);
  QVERIFY(button);
  QVERIFY(button->isEnabled());
  QTest::mouseClick(button, Qt::LeftButton);
}

struct Row {
  QString name;
  double mean, sd, rhat, essBulk;
  bool operator==(const Row& o) const {
    return name == o.name && mean == o.mean && sd == o.sd && (rhat == o.rhat || (std::isnan(rhat) && std::isnan(o.rhat))) &&
           essBulk == o.essBulk;
  }
};

QList<Row> tableRows(DiagnosticsModel* model) {
  QList<Row> rows;
  for (int r = 0; r < model->rowCount(); ++r) {
    rows << Row{model->parameter(r), model->value(r, DiagnosticsModel::Mean), model->value(r, DiagnosticsModel::Sd),
                model->value(r, DiagnosticsModel::Rhat), model->value(r, DiagnosticsModel::EssBulk)};
  }
  return rows;
}

}  // namespace

class TestStudioRun : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  // The studio's Run on eight schools with one sigma of -1: the run fails and says which
  // value is wrong and where the model uses it, as `variate sample` does.
  void aFailedInitializationNamesTheInvalidArgument() {
    QTemporaryDir dir;
    const QString folder = studio_test::copyProject("eight_schools", dir);
    QFile data(folder + "/data.json");
    QVERIFY(data.open(QIODevice::WriteOnly | QIODevice::Truncate));
    data.write(R"({"J": 8, "y": [28, 8, -3, 7, -1, 1, 18, 12], "sigma": [15, 10, -1, 11, 9, 11, 10, 18]})");
    data.close();
    MainWindow window;
    QVERIFY2(openShown(window, folder + "/eight_schools.vmod"), qPrintable(window.lastError()));
    QSignalSpy failed(window.coordinator(), &RunCoordinator::runFailed);
    click(window, window.actions().run);
    QVERIFY(failed.wait(60000));
    const QString message = failed.first().first().toString();
    QVERIFY2(message.contains("no initial point with a finite log density"), qPrintable(message));
    QVERIFY2(message.contains("eight_schools.vmod:11:5: error: Normal: argument 'sigma' must be positive, got -1 "
                              "(at index 3)"),
             qPrintable(message));
  }

  void runStopReopen() {
    QTemporaryDir dir;
    const QString folder = studio_test::copyProject("eight_schools", dir);
    QString projectPath;
    qint64 runId = -1;
    QList<Row> summaryBefore;
    {
      MainWindow window;
      window.setQuietErrors(true);
      window.show();
      QVERIFY2(window.openPath(folder + "/eight_schools.vmod"), qPrintable(window.lastError()));
      ProjectDocument* document = window.document();
      projectPath = document->filePath();
      QVERIFY(QFileInfo::exists(projectPath));
      RunConfig config = document->runConfig();
      config.settings.set(services::setting::warmup, 200);
      config.settings.set(services::setting::draws, 1'000'000);  // far more than the test waits for: it stops the run
      config.settings.set(services::setting::seed, std::optional<uint64_t>(7));
      config.settings.set(services::setting::threads, 4);  // a thread per chain, whatever this machine's cores
      document->setRunConfig(config);

      QSignalSpy batches(document->runs(), &RunList::drawsAppended);
      QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
      TracePanel* traces = window.docks().traces;
      StallMeter meter;
      click(window, window.actions().run);
      QVERIFY(window.coordinator()->isRunning());
      QVERIFY(batches.wait(30000));
      QVERIFY(studio_test::waitFor([&] { return traces->plottedIterations(0) > 0; }, 10000));
      const int first = traces->plottedIterations(0);
      const int batchesAtFirst = batches.count();
      QVERIFY(studio_test::waitFor([&] { return batches.count() > batchesAtFirst + 3 && traces->plottedIterations(0) > first; }, 30000));
      QVERIFY2(traces->plottedIterations(0) > first, "the trace of chain 1 grows while sampling");
      // Each batch carries many draws: the UI is not sent one signal per draw.
      const RunPtr live = document->runs()->current();
      QVERIFY(live && live->isActive());
      int drawsSoFar = 0;
      for (const auto& chain : live->chains) drawsSoFar += chain.iterations();
      QVERIFY2(drawsSoFar > batches.count(), qPrintable(QString("%1 draws in %2 batches").arg(drawsSoFar).arg(batches.count())));
      // Every chain samples at once (a thread per chain), past warmup.
      QVERIFY(studio_test::waitFor([&] { return live->chains.size() == 4 && live->samplingDrawsPerChain() > 400; }, 60000));
      // The live summary says when it was computed: at which iteration, how long ago, and
      // where the chains are now.
      const QRegularExpression stamp("live: computed at iteration (\\d+), (\\d+) s ago; the chains are at (\\d+)");
      QLabel* liveCaption = window.docks().diagnostics->caption();
      QVERIFY2(studio_test::waitFor([&] { return liveCaption->text().contains(stamp); }, 20000), qPrintable(liveCaption->text()));
      const QRegularExpressionMatch match = stamp.match(liveCaption->text());
      QVERIFY2(match.captured(1).toInt() > 0 && match.captured(1).toInt() <= match.captured(3).toInt(),
               qPrintable(liveCaption->text()));
      QCOMPARE(match.captured(1).toInt(), live->summary.iterations);

      // Pause holds every chain (after the batch each was making); resume lets them go on.
      const auto drawsNow = [&] {
        int n = 0;
        for (const auto& chain : live->chains) n += chain.iterations();
        return n;
      };
      click(window, window.actions().pause);
      QVERIFY(window.coordinator()->isPaused());
      QCOMPARE(live->status, RunStatus::Paused);
      int held = drawsNow();
      QVERIFY(studio_test::waitFor([&] {  // the batches in flight arrive, then nothing
        QTest::qWait(300);
        const int before = held;
        held = drawsNow();
        return held == before;
      }, 20000));
      QTest::qWait(500);
      QCOMPARE(drawsNow(), held);
      click(window, window.actions().pause);  // the same toolbar button resumes
      QVERIFY(!window.coordinator()->isPaused());
      QVERIFY(studio_test::waitFor([&] { return drawsNow() > held; }, 20000));
      QCOMPARE(live->status, RunStatus::Running);

      click(window, window.actions().stop);
      QVERIFY(ended.wait(30000));
      // Until the last summary is in, the table's caption says its numbers are not final.
      auto* caption = window.docks().diagnostics->findChild<QLabel*>("diagnosticsCaption");
      QVERIFY(caption);
      if (!live->summaryIsCurrent()) QVERIFY2(caption->text().contains("updating"), qPrintable(caption->text()));
      const qint64 stall = meter.worstMs();
      qInfo("longest event-loop stall while sampling: %lld ms (%d batches)", stall, int(batches.count()));
      if (qEnvironmentVariableIsSet("VARIATE_ASSERT_UI_LATENCY")) QVERIFY2(stall < 100, qPrintable(QString::number(stall)));
      runId = live->id;
      QCOMPARE(live->status, RunStatus::Stopped);
      // The status bar describes the run shown: where it stopped.
      auto* status = window.findChild<RunStatusLabel*>();
      QVERIFY(status);
      QVERIFY2(studio_test::waitFor([&] { return status->text().contains(QRegularExpression("stopped at iteration \\d+ of 1000200")); }, 5000),
               qPrintable(status->text()));

      // Every draw the UI saw is in the project file, and nothing else.
      variate::store::Project project(projectPath.toStdString());
      QCOMPARE(project.run(runId).status, variate::store::RunStatus::stopped);
      const auto stored = project.draws(runId);
      QCOMPARE(int(stored.size()), 4);
      for (const auto& chain : stored) {
        QCOMPARE(int(chain.rows), live->chains[chain.chain].iterations());
        QCOMPARE(chain.warmup_iterations, 200);
      }
      const auto& firstBlock = *live->chains[0].blocks().front();
      const int mu = live->columnIndex("mu");
      QVERIFY(mu >= 0);
      QCOMPARE(stored[0].column("mu", true).front(), firstBlock.value(0, mu));

      // The table shows the summary of all kept draws, as `variate summary` computes it.
      SummaryService* summaries = window.coordinator()->summaries();
      // (A live summary thinned just before the stop may match the count for a moment: wait
      // for the ended run's own.)
      QVERIFY(studio_test::waitFor(
          [&] {
            return !summaries->busy() && live->summary.drawsPerChain == live->samplingDrawsPerChain() &&
                   live->summaryIsCurrent();
          },
          60000));
      QVERIFY(live->summaryIsCurrent());
      QVERIFY2(caption->text().contains(QString("4 chains × %1 post-warmup draws").arg(live->samplingDrawsPerChain())) &&
                   !caption->text().contains("updating"),
               qPrintable(caption->text()));
      DiagnosticsModel* table = window.docks().diagnostics->model();
      summaryBefore = tableRows(table);
      QCOMPARE(summaryBefore.size(), live->columnNames.size());
      const auto cli = variate::store::summarize_run(project, runId);
      QCOMPARE(cli.parameters.size(), size_t(summaryBefore.size()));
      for (int i = 0; i < summaryBefore.size(); ++i) {
        QCOMPARE(summaryBefore[i].name, QString::fromStdString(cli.parameters[i].name));
        QCOMPARE(summaryBefore[i].mean, cli.parameters[i].mean);
        QCOMPARE(summaryBefore[i].essBulk, cli.parameters[i].ess_bulk);
      }
    }
    {
      MainWindow window;
      window.setQuietErrors(true);
      QVERIFY2(window.openPath(projectPath), qPrintable(window.lastError()));
      RunList* runs = window.document()->runs();
      QVERIFY(runs->run(runId));
      QCOMPARE(runs->currentId(), runId);
      QCOMPARE(runs->run(runId)->status, RunStatus::Stopped);
      DiagnosticsModel* table = window.docks().diagnostics->model();
      QVERIFY(studio_test::waitFor([&] { return table->rowCount() == summaryBefore.size(); }, 60000));
      QCOMPARE(tableRows(table), summaryBefore);
      QVERIFY(studio_test::waitFor([&] { return window.docks().traces->plottedIterations(3) > 0; }, 10000));
    }
  }

  // The Run panel's sampler options reach the sampler and the project: a dense metric,
  // a maximum tree depth of 3, adapt delta 0.95 and float32 arithmetic set in the panel
  // are what the run records, what its draws show and what its stored summary counts
  // against.
  // The Run panel's Adaptation reaches the sampler: the Fisher warmup ends each chain's
  // warmup once adapted, and the panels and the record see each chain's own length.
  void fisherAdaptationFromTheRunPanel() {
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY2(openShown(window, studio_test::copyProject("eight_schools", dir) + "/eight_schools.vmod"),
             qPrintable(window.lastError()));
    QWidget* panel = window.docks().runConfig;
    QVERIFY(studio_test::typeInto(panel, "chains", "2"));
    QVERIFY(studio_test::typeInto(panel, "draws", "100"));
    QVERIFY(studio_test::choose(panel, "adapt", "fisher"));
    QCOMPARE(window.document()->runConfig().settings.get(services::setting::adapt), std::string("fisher"));

    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    click(window, window.actions().run);
    QVERIFY(ended.wait(120000));
    const RunPtr run = window.document()->runs()->current();
    QVERIFY2(run->status == RunStatus::Finished, qPrintable(run->message));
    QCOMPARE(static_cast<int>(run->chains.size()), 2);
    for (const auto& chain : run->chains) {
      QVERIFY2(chain.warmupIterations() > 0 && chain.warmupIterations() < 1000,
               qPrintable(QString("warmup %1").arg(chain.warmupIterations())));
    }
    variate::store::Project project(window.document()->filePath().toStdString());
    const QJsonObject stored =
        QJsonDocument::fromJson(QByteArray::fromStdString(project.run(run->id).config_json)).object();
    QCOMPARE(stored["adapt"].toString(), QString("fisher"));
    for (int c = 0; c < 2; ++c) {
      QCOMPARE(project.chains(run->id)[static_cast<size_t>(c)].warmup_iterations,
               run->chains[static_cast<size_t>(c)].warmupIterations());
    }
  }

  // The centered eight schools from the studio: the pilot decides, the run records what it
  // sampled, the Sampler panel says so, and more draws of the run sample the same space
  // (read as the model's own, the non-centered coordinates would put theta near 0).
  void aCenteredModelIsReparameterizedAndMoreDrawsKeepIt() {
    QTemporaryDir dir;
    const QString folder = studio_test::copyProject("eight_schools", dir);
    QFile centered(QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/reparam/eight_schools_centered.vmod"));
    QVERIFY(centered.open(QIODevice::ReadOnly));
    const QByteArray text = centered.readAll();
    QFile model(folder + "/eight_schools.vmod");
    QVERIFY(model.open(QIODevice::WriteOnly | QIODevice::Truncate));
    model.write(text);
    model.close();
    MainWindow window;
    QVERIFY2(openShown(window, folder + "/eight_schools.vmod"), qPrintable(window.lastError()));
    QWidget* panel = window.docks().runConfig;
    QVERIFY(studio_test::typeInto(panel, "warmup", "400"));
    QVERIFY(studio_test::typeInto(panel, "draws", "200"));
    QCOMPARE(window.document()->runConfig().settings.get(services::setting::reparam), std::string("auto"));

    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    click(window, window.actions().run);
    QVERIFY(ended.wait(120000));
    const RunPtr run = window.document()->runs()->current();
    QVERIFY2(run->status == RunStatus::Finished, qPrintable(run->message));
    QCOMPARE(run->config.settings.get(services::setting::reparam), std::string("theta=0"));
    QCOMPARE(run->config.reparamPilot, 150);
    for (const auto& chain : run->chains) QCOMPARE(chain.warmupIterations(), 250);
    variate::store::Project project(window.document()->filePath().toStdString());
    const QJsonObject stored =
        QJsonDocument::fromJson(QByteArray::fromStdString(project.run(run->id).config_json)).object();
    QCOMPARE(stored["reparam"].toString(), QString("theta=0"));
    QCOMPARE(stored["reparam_pilot"].toInt(), 150);
    const QLabel* setup = window.docks().sampler->findChild<QLabel*>("samplerSetup");
    QTRY_VERIFY2(setup->text().contains("Warmup: 400 iterations per chain, of which the first 150 sampled "
                                        "non-centered to decide the reparameterization · Reparameterized: theta "
                                        "non-centered"),
                 qPrintable(setup->text()));

    QVERIFY(window.actions().runMore->isEnabled());
    window.actions().runMore->trigger();  // 200 more draws per chain
    QVERIFY(ended.wait(120000));
    const RunPtr more = window.document()->runs()->current();
    QCOMPARE(more->id, run->id);
    QCOMPARE(more->status, RunStatus::Finished);
    const int column = more->columnNames.indexOf("theta[1]");
    QVERIFY(column >= 0);
    double sum = 0;
    int count = 0;
    for (const auto& chain : more->chains) {
      QCOMPARE(chain.iterations(), 250 + 400);
      for (double value : chain.column(column, 450, 650)) {
        sum += value;
        ++count;
      }
    }
    QVERIFY2(sum / count > 3, qPrintable(QString("theta[1]'s mean over the more draws: %1").arg(sum / count)));
  }

  void runPanelOptionsReachTheSampler() {
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY2(openShown(window, studio_test::copyProject("eight_schools", dir) + "/eight_schools.vmod"),
             qPrintable(window.lastError()));
    QWidget* panel = window.docks().runConfig;
    QVERIFY(studio_test::typeInto(panel, "chains", "2"));
    QVERIFY(studio_test::typeInto(panel, "warmup", "150"));
    QVERIFY(studio_test::typeInto(panel, "draws", "100"));
    QVERIFY(studio_test::choose(panel, "metric", "dense"));
    QVERIFY(studio_test::typeInto(panel, "max_depth", "3"));
    QVERIFY(studio_test::typeInto(panel, "adapt_delta", "0.95"));
    QVERIFY(studio_test::choose(panel, "dtype", "float32"));
    const RunConfig& config = window.document()->runConfig();
    QCOMPARE(config.settings.get(services::setting::chains), 2);
    QCOMPARE(config.settings.get(services::setting::metric), std::string("dense"));
    QCOMPARE(config.settings.get(services::setting::max_depth), 3);
    QCOMPARE(config.settings.get(services::setting::adapt_delta), 0.95);
    QCOMPARE(config.settings.get(services::setting::dtype), std::string("float32"));
    QVERIFY(studio_test::choose(panel, "backend", "torch"));
    QCOMPARE(window.document()->runConfig().settings.get(services::setting::backend), std::string("torch"));
    QVERIFY(studio_test::choose(panel, "backend", "auto"));
    QCOMPARE(window.document()->runConfig().settings.get(services::setting::backend), std::string("auto"));

    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    click(window, window.actions().run);
    QVERIFY(ended.wait(120000));
    const RunPtr run = window.document()->runs()->current();
    QVERIFY2(run->status == RunStatus::Finished, qPrintable(run->message));

    variate::store::Project project(window.document()->filePath().toStdString());
    const QJsonObject stored =
        QJsonDocument::fromJson(QByteArray::fromStdString(project.run(run->id).config_json)).object();
    QCOMPARE(stored["metric"].toString(), QString("dense"));
    QCOMPARE(stored["max_depth"].toInt(), 3);
    QCOMPARE(stored["adapt_delta"].toDouble(), 0.95);
    QCOMPARE(stored["chains"].toInt(), 2);
    QCOMPARE(stored["dtype"].toString(), QString("float32"));
    // float32 runs on LibTorch, and the record says so and why.
    QCOMPARE(stored["backend"].toString(), QString("auto"));
    QCOMPARE(stored["backend_used"].toString(), QString("torch"));
    QVERIFY(stored["backend_note"].toString().contains("float64 only"));

    // No transition went deeper than 3; many stopped there, and the stored summary
    // counted exactly those as hits of the maximum (it reads max_depth from the record).
    int deepest = 0, atMaximum = 0;
    for (const auto& chain : run->chains) {
      for (int i = 0; i < chain.iterations(); ++i) {
        deepest = std::max(deepest, chain.stats(i).treeDepth);
        if (i >= chain.warmupIterations() && chain.stats(i).treeDepth == 3) ++atMaximum;
      }
    }
    QCOMPARE(deepest, 3);
    QVERIFY(atMaximum > 0);
    const auto diagnostics = project.diagnostics_json(run->id);
    QVERIFY(diagnostics);
    const QJsonObject sampler =
        QJsonDocument::fromJson(QByteArray::fromStdString(*diagnostics)).object()["sampler"].toObject();
    QCOMPARE(sampler["max_treedepth_hits"].toInt(), atMaximum);
    // The Sampler panel counts the same hits, against the run's limit.
    int panelHits = 0;
    for (int c = 0; c < 2; ++c) panelHits += window.docks().sampler->statistics(c).maxDepthHits;
    QCOMPARE(panelHits, atMaximum);

    // The adapted metric is dense: a full matrix over eight schools' 10 parameters.
    const auto chains = project.chains(run->id);
    QCOMPARE(int(chains.size()), 2);
    for (const auto& chain : chains) {
      QCOMPARE(QString::fromStdString(chain.metric), QString("dense_e"));
      QCOMPARE(int(chain.inverse_metric.size()), 100);
    }
    QCOMPARE(int(run->chainStates.front().inverseMetric.size()), 100);
  }
};

QTEST_MAIN(TestStudioRun)
#include "tst_studio_run.moc"
