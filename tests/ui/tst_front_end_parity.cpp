// One driver per method: every method run once by `variate` (into a project, --project)
// and once through the studio's Run panel (its real widgets, offscreen) with the same
// settings finds the same draws (bit for bit: the methods are deterministic given the
// seed), the same stored run configuration and the same stored summary (but for the
// timings); the same for NUTS and ADVI on 2 processes and on a loopback worker; a NUTS
// run's posterior predictive draws (`variate predict`, the Predictive check panel) and its
// PSIS-LOO (`variate loo`, the LOO panel) agree too. The settings are typed into the
// fields the panel makes from the settings' descriptions, as `variate`'s flags are.

#include <cstring>

#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include "engine/io/stan_csv_reader.h"
#include "engine/services/settings.h"
#include "engine/store/project.h"
#include "tests/app/run_program.h"
#include "tests/support/loopback_worker.h"
#include "tests/ui/studio_test_support.h"
#include "ui/app/main_window.h"
#include "ui/app/run_coordinator.h"
#include "ui/app/studio_docks.h"
#include "ui/docks/known_workers.h"
#include "ui/docks/loo_panel.h"
#include "ui/docks/predictive_check_panel.h"
#include "ui/docks/run_config_panel.h"
#include "ui/document/project_document.h"

using namespace variate::ui;
namespace services = variate::services;
namespace store = variate::store;
using Settings = QList<QPair<QString, QString>>;  // flags as `variate` takes them: {"--draws", "100"}

namespace {

const QString kReference = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/reference/");
const QString kVae = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/fashion_vae/");

struct Model {
  QString folder;  // holds MODEL.vmod and its data
  QString file;    // MODEL.vmod
  QStringList data;  // `variate`'s data options
};

// A copy of a model and its data in a folder of its own, so that each front end makes
// its own project beside it.
Model copyModel(const QTemporaryDir& dir, const QString& tag, const QString& name) {
  Model m;
  m.folder = dir.path() + "/" + tag;
  QDir().mkpath(m.folder);
  if (name == "eight_schools") {
    for (const QString f : {"eight_schools.vmod", "data.json"}) QFile::copy(studio_test::kProjects + "eight_schools/" + f, m.folder + "/" + f);
    m.file = m.folder + "/eight_schools.vmod";
    m.data = {"--data", m.folder + "/data.json"};
  } else if (name == "blr") {
    QFile::copy(kReference + "sblrc-blr/model.vmod", m.folder + "/blr.vmod");
    QFile::copy(kReference + "sblrc-blr/data.json", m.folder + "/data.json");
    m.file = m.folder + "/blr.vmod";
    m.data = {"--data", m.folder + "/data.json"};
  } else {  // the VAE: train.json and test.json beside it, as the studio finds them
    QFile::copy(studio_test::kProjects + "fashion_vae/fashion_vae.vmod", m.folder + "/fashion_vae.vmod");
    for (const QString f : {"train.json", "test.json"}) QFile::copy(kVae + f, m.folder + "/" + f);
    m.file = m.folder + "/fashion_vae.vmod";
    m.data = {"--data", m.folder + "/train.json", "--test-data", m.folder + "/test.json"};
  }
  return m;
}

QString cliProject(const Model& m) { return m.folder + "/cli.variate"; }

// `variate COMMAND MODEL DATA --project cli.variate SETTINGS`; the run's id.
store::Id runCli(const QString& command, const Model& m, const Settings& settings, const QStringList& extra = {}) {
  QStringList arguments{command, m.file};
  arguments << m.data << "--project" << cliProject(m) << "--quiet";
  for (const auto& [flag, value] : settings) {
    arguments << flag;
    if (!value.isEmpty()) arguments << value;
  }
  const app_test::Outcome outcome = app_test::run_program(VARIATE_EXECUTABLE, arguments + extra, 300000);
  if (outcome.exit_code != 0) {
    qWarning("%s", qPrintable(outcome.output));
    return -1;
  }
  return store::Project(cliProject(m).toStdString()).runs().back().id;
}

// Types one setting into the Run panel's field made from its description.
bool enter(RunConfigPanel* panel, services::Method method, const QString& flag, const QString& value) {
  const services::SettingDescriptor* setting = services::find_setting(method, flag.toStdString());
  QWidget* field = setting ? panel->fieldOf(*setting) : nullptr;
  if (!field) return false;
  if (auto* check = qobject_cast<QCheckBox*>(field)) {
    const bool on = flag.toStdString() == setting->flag();
    if (check->isChecked() != on) QTest::mouseClick(check, Qt::LeftButton);
    return check->isChecked() == on;
  }
  if (qobject_cast<QComboBox*>(field)) {
    const QString item = !value.isEmpty() ? value : flag.toStdString() == setting->flag() ? "on" : "off";
    return studio_test::choose(panel, field->objectName(), item);
  }
  if (auto* line = qobject_cast<QLineEdit*>(field)) {
    line->selectAll();
    QTest::keyClicks(line, value);
    QTest::keyClick(line, Qt::Key_Return);
    return line->text() == value;
  }
  return studio_test::typeInto(panel, field->objectName(), value);
}

// The studio on its own project beside the model: the method chosen and the settings typed
// in the Run panel, Run clicked; the run's id once it ended.
store::Id runStudio(MainWindow& window, const Model& m, services::Method method, const Settings& settings) {
  if (!window.openPath(m.file)) return -1;
  auto* panel = window.docks().runConfig;
  if (method != services::Method::amortized &&
      !studio_test::choose(panel, "method", QString::fromUtf8(services::method_label(method)))) {
    return -1;
  }
  for (const auto& [flag, value] : settings) {
    if (!enter(panel, method, flag, value)) {
      qWarning("the Run panel has no field for %s", qPrintable(flag));
      return -1;
    }
  }
  QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
  QSignalSpy failed(window.coordinator(), &RunCoordinator::runFailed);
  window.actions().run->trigger();
  if (!studio_test::waitFor([&] { return !ended.isEmpty() || !failed.isEmpty(); }, 300000)) return -1;
  if (!failed.isEmpty()) {
    qWarning("%s", qPrintable(failed.front().front().toString()));
    return -1;
  }
  const RunPtr run = window.document()->runs()->current();
  if (run->status != RunStatus::Finished) qWarning("%s", qPrintable(run->message));
  return run->id;
}

// A document without what differs between two runs of one spec: times, and the job.
nlohmann::json comparable(const std::string& text) {
  nlohmann::json json = nlohmann::json::parse(text);
  std::function<void(nlohmann::json&)> strip = [&](nlohmann::json& j) {
    if (j.is_object()) {
      for (auto it = j.begin(); it != j.end();) {
        const std::string& key = it.key();
        if (key.find("seconds") != std::string::npos || key == "rows_per_second" || key == "job") {
          it = j.erase(it);
        } else {
          strip(*it++);
        }
      }
    } else if (j.is_array()) {
      for (auto& element : j) strip(element);
    }
  };
  strip(json);
  return json;
}

// The two runs agree: every stored value bit for bit, the configuration, the summary.
void compareRuns(const QString& cliPath, store::Id cliRun, const QString& studioPath, store::Id studioRun) {
  QVERIFY(cliRun >= 0 && studioRun >= 0);
  const store::Project cli(cliPath.toStdString()), studio(studioPath.toStdString());
  const store::RunInfo a = cli.run(cliRun), b = studio.run(studioRun);
  QCOMPARE(a.method, b.method);
  QCOMPARE(a.seed, b.seed);
  QCOMPARE(QString::fromStdString(comparable(a.config_json).dump()), QString::fromStdString(comparable(b.config_json).dump()));
  const auto x = cli.draws(cliRun), y = studio.draws(studioRun);
  QCOMPARE(x.size(), y.size());
  for (size_t c = 0; c < x.size(); ++c) {
    QCOMPARE(x[c].columns, y[c].columns);
    QCOMPARE(x[c].rows, y[c].rows);
    QCOMPARE(x[c].values.size(), y[c].values.size());
    QVERIFY2(std::memcmp(x[c].values.data(), y[c].values.data(), x[c].values.size() * sizeof(double)) == 0,
             qPrintable(QString("chain %1's draws differ").arg(c + 1)));
  }
  const auto elbo_a = cli.elbo_trace(cliRun), elbo_b = studio.elbo_trace(studioRun);
  QVERIFY2((!x.empty() && x.front().rows > 0) || !elbo_a.empty(), "the runs made draws or an ELBO trace");
  QCOMPARE(elbo_a.size(), elbo_b.size());
  for (size_t i = 0; i < elbo_a.size(); ++i) QCOMPARE(elbo_a[i].elbo, elbo_b[i].elbo);
  const auto summary_a = cli.diagnostics_json(cliRun), summary_b = studio.diagnostics_json(studioRun);
  QVERIFY(summary_a && summary_b);
  QCOMPARE(QString::fromStdString(comparable(*summary_a).dump()), QString::fromStdString(comparable(*summary_b).dump()));
}

}  // namespace

class TestFrontEndParity : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
    qputenv("VARIATE_PROGRAM", VARIATE_EXECUTABLE);  // the studio's ranks, also when the suite runs alone
  }

  void everyMethodAgrees_data() {
    QTest::addColumn<QString>("command");
    QTest::addColumn<int>("method");
    QTest::addColumn<QString>("model");
    QTest::addColumn<Settings>("settings");
    const auto nuts = static_cast<int>(services::Method::nuts), advi = static_cast<int>(services::Method::advi);
    const Settings sampled = {{"--seed", "7"}, {"--chains", "2"}, {"--warmup", "150"}, {"--draws", "100"}, {"--max-depth", "6"}};
    QTest::newRow("NUTS") << "sample" << nuts << "eight_schools" << sampled;
    QTest::newRow("NUTS, auto-stop")
        << "sample" << nuts << "eight_schools"
        << Settings{{"--seed", "7"}, {"--chains", "2"}, {"--warmup", "150"}, {"--draws", "50"}, {"--until-ess", "40"},
                    {"--max-draws", "400"}};
    QTest::newRow("ADVI, mean-field") << "fit" << advi << "eight_schools" << Settings{{"--seed", "7"}, {"--output-draws", "200"}};
    QTest::newRow("ADVI, full-rank")
        << "fit" << advi << "eight_schools" << Settings{{"--seed", "7"}, {"--method", "fullrank"}, {"--output-draws", "200"}};
    const auto optimize = static_cast<int>(services::Method::optimize);
    QTest::newRow("Optimize") << "optimize" << optimize << "eight_schools" << Settings{{"--seed", "7"}};
    QTest::newRow("Optimize, with the Jacobian") << "optimize" << optimize << "eight_schools"
                                                 << Settings{{"--seed", "7"}, {"--jacobian", ""}};
    QTest::newRow("Laplace") << "optimize" << optimize << "eight_schools"
                             << Settings{{"--seed", "7"}, {"--laplace-draws", "200"}};
    QTest::newRow("Pathfinder") << "pathfinder" << static_cast<int>(services::Method::pathfinder) << "eight_schools"
                                << Settings{{"--seed", "7"}, {"--num-paths", "2"}, {"--draws", "200"}, {"--psis-draws", "200"}};
    QTest::newRow("amortized training")
        << "fit" << static_cast<int>(services::Method::amortized) << "vae"
        << Settings{{"--seed", "7"}, {"--epochs", "1"}, {"--batch-size", "128"}};
    QTest::newRow("NUTS on 2 processes") << "sample" << nuts << "blr" << (sampled + Settings{{"--nproc", "2"}});
    QTest::newRow("ADVI on 2 processes") << "fit" << advi << "blr"
                                         << Settings{{"--seed", "7"}, {"--output-draws", "200"}, {"--nproc", "2"}};
  }

  void everyMethodAgrees() {
    QFETCH(QString, command);
    QFETCH(int, method);
    QFETCH(QString, model);
    QFETCH(Settings, settings);
    QTemporaryDir dir;
    const Model cli = copyModel(dir, "cli", model), studio = copyModel(dir, "studio", model);
    const store::Id cliRun = runCli(command, cli, settings);
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    const store::Id studioRun = runStudio(window, studio, static_cast<services::Method>(method), settings);
    const QString studioPath = window.document()->filePath();
    compareRuns(cliProject(cli), cliRun, studioPath, studioRun);
  }

  // A worker makes NUTS and ADVI runs alike for both front ends: their events replayed
  // into the same records.
  void onALoopbackWorker_data() {
    QTest::addColumn<QString>("command");
    QTest::addColumn<int>("method");
    QTest::addColumn<Settings>("settings");
    QTest::newRow("NUTS") << "sample" << static_cast<int>(services::Method::nuts)
                          << Settings{{"--seed", "7"}, {"--chains", "2"}, {"--warmup", "150"}, {"--draws", "100"}};
    QTest::newRow("ADVI") << "fit" << static_cast<int>(services::Method::advi)
                          << Settings{{"--seed", "7"}, {"--output-draws", "200"}};
  }

  void onALoopbackWorker() {
    QFETCH(QString, command);
    QFETCH(int, method);
    QFETCH(Settings, settings);
    QTemporaryDir dir;
    remote_test::LoopbackWorker worker(VARIATE_EXECUTABLE, dir.path());
    QVERIFY2(!worker.address().isEmpty(), qPrintable(worker.errors()));
    const Model cli = copyModel(dir, "cli", "eight_schools"), studio = copyModel(dir, "studio", "eight_schools");
    const store::Id cliRun =
        runCli(command, cli, settings, {"--worker", worker.address(), "--token-file", worker.token_file()});
    setKnownWorkers({WorkerRef{worker.address(), worker.token_file(), QString()}});
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    window.docks().runConfig->refreshWorkers();
    QVERIFY(window.openPath(studio.file));
    QVERIFY(studio_test::choose(window.docks().runConfig, "run_on", worker.address()));
    const store::Id studioRun = runStudio(window, studio, static_cast<services::Method>(method), settings);
    compareRuns(cliProject(cli), cliRun, window.document()->filePath(), studioRun);
  }

  // A NUTS run's posterior predictive draws and PSIS-LOO: `variate predict` and `variate
  // loo` on the CLI's run, the Predictive check and LOO panels on the studio's.
  void predictionAndLooAgree() {
    QTemporaryDir dir;
    const Model cli = copyModel(dir, "cli", "eight_schools"), studio = copyModel(dir, "studio", "eight_schools");
    const Settings settings = {{"--seed", "7"}, {"--chains", "2"}, {"--warmup", "150"}, {"--draws", "100"}};
    const store::Id cliRun = runCli("sample", cli, settings);
    QVERIFY(cliRun >= 0);
    const QString predicted = dir.path() + "/predicted";
    QCOMPARE(app_test::run_program(VARIATE_EXECUTABLE, {"predict", "--project", cliProject(cli), "--run",
                                                     QString::number(cliRun), "--output", predicted})
                 .exit_code,
             0);
    QCOMPARE(app_test::run_program(VARIATE_EXECUTABLE, {"loo", "--project", cliProject(cli), "--run", QString::number(cliRun)})
                 .exit_code,
             0);
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    const store::Id studioRun = runStudio(window, studio, services::Method::nuts, settings);
    QVERIFY(studioRun >= 0);

    PredictiveCheckPanel* panel = window.docks().predictive;
    window.docks().dock("predictiveDock")->raise();
    QVERIFY(studio_test::waitFor([&] { return panel->prediction() != nullptr; }, 60000));
    const ObservedPrediction& y = panel->prediction()->observed.at(0);
    std::vector<std::vector<double>> replicated;  // the CLI's, chains one after another
    for (int chain = 1; chain <= 2; ++chain) {
      const auto csv = variate::io::read_stan_csv((predicted + QString("/chain_%1.csv").arg(chain)).toStdString());
      for (const auto& row : csv.draws) {
        std::vector<double> values;
        for (int i = 1; i <= 8; ++i) values.push_back(row[*csv.column_index("y_rep." + std::to_string(i))]);
        replicated.push_back(values);
      }
    }
    QCOMPARE(y.replicated, replicated);

    window.docks().dock("looDock")->raise();
    const store::Project studioProject(window.document()->filePath().toStdString());
    QVERIFY(studio_test::waitFor([&] { return studioProject.loo_json(studioRun).has_value(); }, 60000));
    QCOMPARE(QString::fromStdString(*studioProject.loo_json(studioRun)),
             QString::fromStdString(*store::Project(cliProject(cli).toStdString()).loo_json(cliRun)));
  }
};

QTEST_MAIN(TestFrontEndParity)
#include "tst_front_end_parity.moc"
