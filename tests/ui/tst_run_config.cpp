// The run configuration the studio keeps and a project records: the method, every
// method's settings (the services' descriptions) and a run's job, surviving a round trip
// through JSON, with the files of older studios and of `variate sample --project` still
// read — missing keys keep their defaults, old keys and values are understood, values
// that make no sense are ignored. And views read runs as const: nothing they are handed
// can change a run behind its signals.

#include <type_traits>

#include <QtTest/QtTest>

#include "engine/services/run_config.h"
#include "engine/services/setting_table.h"
#include "ui/document/run_config.h"
#include "ui/document/run_list.h"
#include "ui/plots/run_plot_panel.h"

using namespace variate;
using namespace variate::ui;
namespace setting = variate::services::setting;

// Compile-time: what RunList and the plot panels hand out is a run to read.
static_assert(std::is_same_v<decltype(std::declval<RunList&>().run(0)), std::shared_ptr<const RunData>>);
static_assert(std::is_same_v<decltype(std::declval<RunList&>().current()), std::shared_ptr<const RunData>>);
static_assert(std::is_same_v<decltype(std::declval<RunList&>().comparison()), std::shared_ptr<const RunData>>);
static_assert(std::is_same_v<decltype(std::declval<RunPlotPanel&>().run()), std::shared_ptr<const RunData>>);

namespace {

// The settings of `method` whose values differ from the defaults, as "name=value", sorted.
QString differing(const RunConfig& config, services::Method method) {
  QStringList out;
  const services::Settings defaults;
  for (const services::SettingDescriptor* s : services::settings_of(method)) {
    const auto value = config.settings.value_of(*s);
    if (value == defaults.value_of(*s)) continue;
    out << QString::fromStdString(s->name + "=" + (value ? s->format(*value) : std::string("none")));
  }
  out.sort();
  return out.join(' ');
}

}  // namespace

class TestRunConfig : public QObject {
  Q_OBJECT

 private slots:
  void defaultsAreTheDescriptions() {
    const RunConfig config;
    QCOMPARE(config.method, services::Method::nuts);
    QCOMPARE(config.settings.get(setting::max_depth), 10);
    QCOMPARE(config.settings.get(setting::laplace_draws), 0);
    QCOMPARE(config.epochs(), 10);
    QVERIFY(!config.onSeveralProcesses());
    QVERIFY(!config.isRemote());
  }

  void roundTrip() {
    RunConfig config;
    config.method = services::Method::advi;
    config.settings.set(setting::seed, std::optional<uint64_t>(18'446'744'073'709'551'557ull));  // beyond a double's integers
    config.settings.set(setting::metric, std::string("dense")).set(setting::max_depth, 3);
    config.settings.set(setting::family, std::string("fullrank")).set(setting::eta, std::optional<double>(0.1));
    config.settings.set(setting::nproc, std::optional<int>(3)).set(setting::lbfgs_iter, 50);
    const RunConfig back = RunConfig::fromJson(config.toJson());
    QVERIFY(back == config);
    QCOMPARE(back.toJson(), config.toJson());
    QCOMPARE(*back.settings.get(setting::seed), 18'446'744'073'709'551'557ull);
    QCOMPARE(back.settings.get(setting::lbfgs_iter), 50);  // another method's settings are kept too
    QVERIFY(back.onSeveralProcesses());
    config.settings.set(setting::eta, std::optional<double>());  // adapted again: a change the undo command can name
    QVERIFY(RunConfig::fromJson(config.toJson()) == config);
    QVERIFY(back != config);
  }

  void kHatAppliesToDrawsThatApproximateThePosterior() {
    RunConfig config;
    config.method = services::Method::optimize;
    QVERIFY(!config.kHatApplies());  // the mode alone
    config.settings.set(setting::laplace_draws, 200);
    QVERIFY(config.kHatApplies());  // with the Jacobian, as auto decides
    config.settings.set(setting::jacobian, std::string("off"));
    QVERIFY(!config.kHatApplies());
    config.method = services::Method::pathfinder;
    QVERIFY(config.kHatApplies());
    QCOMPARE(methodName(services::Method::optimize), QString("Optimize (L-BFGS)"));
  }

  // A run's record holds what reattaching to its job needs: the worker's address, the
  // paths of its token and CA files (never the token), and the job.
  void aRunsWorkerAndJobAreRead() {
    RunConfig config;
    config.setWorker({"gpu1:7070", "/home/me/.variate/gpu1.token", "/home/me/ca.pem"});
    QVERIFY(config.isRemote());
    QCOMPARE(config.worker().caFile, QString("/home/me/ca.pem"));
    const auto json = services::run_config_json(services::Method::nuts, config.settings, {"tape", 1, 5, "cpu", ""},
                                                services::JobRef{"0123abcd", {10, 12}});
    const RunConfig run = RunConfig::ofRun(services::Method::nuts, json.dump());
    QCOMPARE(run.workerAddress(), QString("gpu1:7070"));
    QCOMPARE(QString::fromStdString(run.job->id), QString("0123abcd"));
    QCOMPARE(run.job->offsets, (std::vector<int>{10, 12}));
    const RunConfig older = RunConfig::ofRun(
        services::Method::nuts,
        R"({"worker":{"address":"gpu1:7070","token_file":"t","job":"0123abcd","offsets":[3]}})");
    QCOMPARE(older.workerAddress(), QString("gpu1:7070"));
    QCOMPARE(older.job->offsets, (std::vector<int>{3}));
  }

  void olderFilesStillLoad_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<int>("method");
    QTest::addColumn<QString>("expected");
    QTest::newRow("studio before typed options") << QByteArray(
        R"({"method":"ADVI","chains":2,"warmup":500,"draws":300,"seed":"7","threads":0,"device":"cpu",)"
        R"("family":"fullrank","iterations":2000,"output_draws":400})")
        << static_cast<int>(services::Method::advi) << "family=fullrank iter=2000 output_draws=400 seed=7";
    QTest::newRow("first studio: a numeric seed") << QByteArray(R"({"method":"NUTS","seed":42})")
                                                  << static_cast<int>(services::Method::nuts) << "seed=42";
    QTest::newRow("variate sample --project") << QByteArray(
        R"({"chains":4,"warmup":1000,"draws":1000,"max_depth":12,"adapt_delta":0.9,"metric":"dense",)"
        R"("threads":2,"batched_chains":true,"device":"cpu","model_file":"m.vmod","data_file":""})")
        << static_cast<int>(services::Method::nuts) << "adapt_delta=0.9 batched_chains=true max_depth=12 metric=dense threads=2";
    QTest::newRow("an older studio's processes") << QByteArray(R"({"processes":2})")
                                                 << static_cast<int>(services::Method::nuts) << "nproc=2";
    QTest::newRow("an older studio's auto-stop off") << QByteArray(R"({"until_ess":0})")
                                                     << static_cast<int>(services::Method::nuts) << "";
    QTest::newRow("empty") << QByteArray("{}") << static_cast<int>(services::Method::nuts) << "";
    QTest::newRow("nonsense values keep the defaults") << QByteArray(
        R"({"metric":"riemannian","family":"normalizing-flow","dtype":"int8","max_depth":"deep","eta":"fast"})")
        << static_cast<int>(services::Method::advi) << "";
  }

  void olderFilesStillLoad() {
    QFETCH(QByteArray, json);
    QFETCH(int, method);
    QFETCH(QString, expected);
    const RunConfig loaded = RunConfig::fromJson(json.toStdString());
    QCOMPARE(differing(loaded, static_cast<services::Method>(method)), expected);
  }
};

QTEST_MAIN(TestRunConfig)
#include "tst_run_config.moc"
