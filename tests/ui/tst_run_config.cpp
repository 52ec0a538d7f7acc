// The run configuration a project records: typed values (the engine's MetricKind and
// AdviMethod, a dtype) that survive a round trip through JSON, with the files of older
// studios and of `variate sample --project` still read — missing keys keep their
// defaults, old string values parse, values that make no sense are ignored. And views
// read runs as const: nothing they are handed can change a run behind its signals.

#include <type_traits>

#include <QJsonDocument>
#include <QtTest/QtTest>

#include "ui/document/run_config.h"
#include "ui/document/run_list.h"
#include "ui/plots/run_plot_panel.h"

using namespace variate;
using namespace variate::ui;

// Compile-time: what RunList and the plot panels hand out is a run to read.
static_assert(std::is_same_v<decltype(std::declval<RunList&>().run(0)), std::shared_ptr<const RunData>>);
static_assert(std::is_same_v<decltype(std::declval<RunList&>().current()), std::shared_ptr<const RunData>>);
static_assert(std::is_same_v<decltype(std::declval<RunList&>().comparison()), std::shared_ptr<const RunData>>);
static_assert(std::is_same_v<decltype(std::declval<RunPlotPanel&>().run()), std::shared_ptr<const RunData>>);

namespace {

RunConfig parse(const char* json) { return RunConfig::fromJson(QJsonDocument::fromJson(json).object()); }

}  // namespace

class TestRunConfig : public QObject {
  Q_OBJECT

 private slots:
  void defaultsAreTheEngines() {
    const RunConfig config;
    QCOMPARE(config.metric, NutsOptions().metric());
    QCOMPARE(config.maxTreeDepth, 10);
    QCOMPARE(config.adaptDelta, 0.8);
    QCOMPARE(config.family, AdviMethod::meanfield);
    QCOMPARE(config.tolRelObj, 0.01);
    QVERIFY(!config.eta);
    QCOMPARE(config.dtype, Dtype::Float64);
    QCOMPARE(config.processes, 1);
    QVERIFY(!config.onSeveralProcesses());
  }

  void roundTrip() {
    RunConfig config;
    config.method = InferenceMethod::Advi;
    config.seed = 18'446'744'073'709'551'557ull;  // beyond a double's integers
    config.metric = MetricKind::dense;
    config.maxTreeDepth = 3;
    config.adaptDelta = 0.95;
    config.batchedChains = true;
    config.dtype = Dtype::Float32;
    config.family = AdviMethod::fullrank;
    config.tolRelObj = 0.001;
    config.eta = 0.1;
    config.adaptIterations = 20;
    config.gradSamples = 3;
    config.elboSamples = 50;
    config.evalElbo = 25;
    config.processes = 3;
    const RunConfig back = RunConfig::fromJson(config.toJson());
    QCOMPARE(back.toJson(), config.toJson());
    QCOMPARE(back.seed, config.seed);
    QCOMPARE(back.metric, MetricKind::dense);
    QCOMPARE(back.family, AdviMethod::fullrank);
    QCOMPARE(back.dtype, Dtype::Float32);
    QCOMPARE(*back.eta, 0.1);
    QCOMPARE(back.processes, 3);
    QVERIFY(back == config);
    QVERIFY(!back.onSeveralProcesses());  // ADVI runs on one process
    config.eta.reset();  // adapted again: a change the undo command can name
    QVERIFY(RunConfig::fromJson(config.toJson()) == config);
    QVERIFY(back != config);
  }

  // Optimize and Pathfinder are named as their commands in the file, with their options
  // under the commands' names; their draws, as ADVI's, are independent.
  void optimizeAndPathfinderRoundTrip() {
    const RunConfig defaults;
    QCOMPARE(defaults.jacobian, true);
    QCOMPARE(defaults.laplaceDraws, 1000);
    QCOMPARE(defaults.paths, 4);
    RunConfig config;
    config.method = InferenceMethod::Optimize;
    config.jacobian = false;
    config.laplaceDraws = 0;
    QCOMPARE(config.toJson()["method"].toString(), QString("optimize"));
    QCOMPARE(config.toJson()["laplace_draws"].toInt(), 0);
    RunConfig back = RunConfig::fromJson(config.toJson());
    QCOMPARE(back.method, InferenceMethod::Optimize);
    QCOMPARE(back.jacobian, false);
    QCOMPARE(back.laplaceDraws, 0);
    QVERIFY(back == config);
    QVERIFY(!back.kHatApplies());  // no draws, and none would approximate the posterior
    config.jacobian = true;
    config.laplaceDraws = 200;
    QVERIFY(config.kHatApplies());
    config.method = InferenceMethod::Pathfinder;
    config.paths = 8;
    QCOMPARE(config.toJson()["method"].toString(), QString("pathfinder"));
    back = RunConfig::fromJson(config.toJson());
    QCOMPARE(back.method, InferenceMethod::Pathfinder);
    QCOMPARE(back.paths, 8);
    QVERIFY(back.kHatApplies());
    QVERIFY(!back.onSeveralProcesses());
    for (const auto method : {InferenceMethod::Advi, InferenceMethod::Optimize, InferenceMethod::Pathfinder}) {
      QVERIFY(drawsAreIndependent(method));
    }
    QVERIFY(!drawsAreIndependent(InferenceMethod::Nuts));
    QVERIFY(!drawsAreIndependent(InferenceMethod::Amortized));
    QCOMPARE(methodName(InferenceMethod::Optimize), QString("Optimize (L-BFGS)"));
  }

  // A run's record holds what reattaching to its job needs: the worker's address, the
  // paths of its token and CA files (never the token), and the job.
  void workerRoundTrip() {
    RunConfig config;
    QVERIFY(!config.toJson().contains("worker"));  // this computer
    config.worker = {"gpu1:7070", "/home/me/.variate/gpu1.token", "/home/me/ca.pem", "0123abcd"};
    const QJsonObject json = config.toJson();
    QCOMPARE(json["worker"].toObject()["address"].toString(), QString("gpu1:7070"));
    QCOMPARE(json["worker"].toObject()["token_file"].toString(), QString("/home/me/.variate/gpu1.token"));
    const RunConfig back = RunConfig::fromJson(json);
    QVERIFY(back.worker.isRemote());
    QCOMPARE(back.worker.caFile, QString("/home/me/ca.pem"));
    QCOMPARE(back.worker.job, QString("0123abcd"));
    QVERIFY(back == config);
    QVERIFY(!RunConfig::fromJson(RunConfig().toJson()).worker.isRemote());
  }

  void olderFilesStillLoad_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("expected");  // the keys whose values differ from the defaults, sorted
    QTest::newRow("studio before typed options") << QByteArray(
        R"({"method":"ADVI","chains":2,"warmup":500,"draws":300,"seed":"7","threads":0,"device":"cpu",)"
        R"("family":"fullrank","iterations":2000,"output_draws":400})")
        << "chains=2 draws=300 family=fullrank iterations=2000 method=ADVI output_draws=400 seed=7 warmup=500";
    QTest::newRow("first studio: a numeric seed") << QByteArray(R"({"method":"NUTS","seed":42})") << "seed=42";
    QTest::newRow("variate sample --project") << QByteArray(
        R"({"chains":4,"warmup":1000,"draws":1000,"max_depth":12,"adapt_delta":0.9,"metric":"dense",)"
        R"("threads":2,"batched_chains":true,"device":"cpu","model_file":"m.vmod","data_file":""})")
        << "adapt_delta=0.9 batched_chains=true max_depth=12 metric=dense threads=2";
    QTest::newRow("variate sample --project --nproc 2") << QByteArray(R"({"chains":4,"threads":1,"ranks":2})")
        << "processes=2 threads=1";
    QTest::newRow("the recorder's metric names") << QByteArray(R"({"metric":"dense_e"})") << "metric=dense";
    QTest::newRow("empty") << QByteArray("{}") << "";
    QTest::newRow("nonsense values keep the defaults") << QByteArray(
        R"({"metric":"riemannian","family":"normalizing-flow","dtype":"int8","max_depth":"deep","eta":"fast"})")
        << "";
  }

  void olderFilesStillLoad() {
    QFETCH(QByteArray, json);
    QFETCH(QString, expected);
    const QJsonObject loaded = RunConfig::fromJson(QJsonDocument::fromJson(json).object()).toJson();
    const QJsonObject defaults = RunConfig().toJson();
    QStringList differing;
    for (auto it = loaded.begin(); it != loaded.end(); ++it) {
      if (it.value() == defaults.value(it.key())) continue;
      const QJsonValue value = it.value();
      differing << it.key() + "=" + (value.isBool() ? (value.toBool() ? "true" : "false")
                                     : value.isDouble() ? QString::number(value.toDouble())
                                                        : value.toString());
    }
    QCOMPARE(differing.join(' '), expected);
  }

  void etaIsAdaptedUnlessGiven() {
    QVERIFY(!parse(R"({"eta":null})").eta);
    QVERIFY(!parse(R"({})").eta);
    QCOMPARE(*parse(R"({"eta":0.5})").eta, 0.5);
  }
};

QTEST_MAIN(TestRunConfig)
#include "tst_run_config.moc"
