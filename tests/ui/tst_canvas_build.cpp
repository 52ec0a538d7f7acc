// Builds eight schools (non-centered) from an empty project with canvas operations only —
// palette clicks, drags between nodes, typing into the properties panel — then checks the
// text, samples the model (4 chains x 1000 draws) against the posteriordb reference, and
// undoes every edit back to the empty model and redoes them all.

#include <cmath>

#include <nlohmann/json.hpp>

#include "engine/diagnostics/summary.h"
#include "engine/io/data_file.h"
#include "engine/mcmc/sample.h"
#include "engine/model/compile.h"
#include "engine/target/draw_columns.h"

#include "tests/ui/tst_canvas_driver.h"

using namespace canvas_test;
using json = nlohmann::json;

namespace {

const QString kFolder = referenceFolder("eight_schools-eight_schools_noncentered");

const char* const kExpected = R"(data J: int
data y: real[J]
data sigma: real[J]

mu ~ Normal(0, 5)
tau ~ HalfCauchy(5)
theta_trans[J] ~ Normal(0, 1)
theta = theta_trans * tau + mu
y ~ Normal(theta, sigma)
)";

NodeTemplate random(const QString& family) { return {NodeTemplate::Kind::Random, family}; }

}  // namespace

class TestCanvasBuild : public QObject {
  Q_OBJECT

 private slots:
  void buildsEightSchoolsFromTheCanvas() {
    CanvasDriver d("");
    QCOMPARE(d.canvas()->canvasScene()->nodeItems().size(), 0);
    auto add = [&](const NodeTemplate& what, const QString& name) {
      const QString added = d.addFromPalette(what);
      QVERIFY2(!added.isEmpty(), qPrintable("palette entry " + what.encode() + " added nothing"));
      QVERIFY(d.typeInto("nameEdit", name));
      QCOMPARE(d.model()->selection(), QStringList{name});
      QVERIFY2(d.canvas()->nodeItem(name), qPrintable(d.text()));
    };
#define STEP(call) \
  call;            \
  if (QTest::currentTestFailed()) return
    STEP(add({NodeTemplate::Kind::IntData, {}}, "J"));
    STEP(add({NodeTemplate::Kind::RealData, {}}, "y"));
    QVERIFY(d.typeInto("sizesEdit", "J"));
    STEP(add({NodeTemplate::Kind::RealData, {}}, "sigma"));
    QVERIFY(d.typeInto("sizesEdit", "J"));
    STEP(add(random("Normal"), "mu"));
    QVERIFY(d.typeInto("argument:sigma", "5"));
    STEP(add(random("HalfCauchy"), "tau"));
    QVERIFY(d.typeInto("argument:sigma", "5"));
    STEP(add(random("Normal"), "theta_trans"));
    QVERIFY(d.typeInto("sizesEdit", "J"));
    STEP(add({NodeTemplate::Kind::Expression, {}}, "theta"));
    QVERIFY(d.typeInto("expressionEdit", "theta_trans * tau + mu"));

    // Observe y: give the data node a distribution, then wire its parameters by dragging.
    QVERIFY(d.clickNode("y"));
    QCOMPARE(d.model()->selection(), QStringList{"y"});
    QVERIFY(d.typeInto("distributionCombo", "Normal"));
    QCOMPARE(d.model()->shownSnapshot().node("y")->kind, CanvasNode::Kind::Observed);
    QVERIFY(d.dragConnection("theta", "y", "mu"));
    QVERIFY(d.dragConnection("sigma", "y", "sigma"));

    QCOMPARE(d.text(), QString(kExpected));
    QVERIFY2(d.canvas()->message().isEmpty(), qPrintable(d.canvas()->message()));

    // The graph the canvas draws: the right glyphs, edges and the plate over J.
    const ModelSnapshot& graph = d.model()->shownSnapshot();
    QCOMPARE(graph.node("mu")->kind, CanvasNode::Kind::Latent);
    QCOMPARE(graph.node("theta")->kind, CanvasNode::Kind::Derived);
    QCOMPARE(graph.node("J")->kind, CanvasNode::Kind::Data);
    QVERIFY(d.canvas()->canvasScene()->plateItem("J"));
    QCOMPARE(d.canvas()->canvasScene()->edgeItems().size(), 5);  // theta_trans, tau, mu -> theta -> y <- sigma

    // Every edit was one undo step: undoing them all gives back the empty model.
    const int steps = d.undo()->index();
    QCOMPARE(steps, 23);
    NodePositions built = d.model()->layout()->positions();
    while (d.undo()->canUndo()) d.undo()->undo();
    QCOMPARE(d.text(), QString());
    QCOMPARE(d.canvas()->canvasScene()->nodeItems().size(), 0);
    while (d.undo()->canRedo()) d.undo()->redo();
    QCOMPARE(d.text(), QString(kExpected));
    QCOMPARE(d.canvas()->canvasScene()->nodeItems().size(), 7);
    for (const QString& id : d.model()->shownSnapshot().nodeIds()) {
      QCOMPARE(d.canvas()->nodeItem(id)->pos(), built.value(id));
    }

    const auto diagnostics = samplesLikeTheReference(d.text());
    if (QTest::currentTestFailed()) return;

    // The run's diagnostics on the graph: every latent node tinted and showing mean ± sd.
    d.model()->setDiagnostics(diagnostics);
    for (const QString& id : {QString("mu"), QString("tau"), QString("theta_trans"), QString("theta")}) {
      const NodeDiagnostics node = d.model()->diagnostics().value(id);
      QVERIFY2(node.health() == NodeDiagnostics::Health::Good, qPrintable(id + ": " + node.convergenceText()));
    }
    QCOMPARE(d.model()->diagnostics().value("theta").elements, 8);
    // Arrange lays the canvas-built graph out as one undoable move, leaving the text alone.
    d.key(Qt::Key_L);
    QCOMPARE(d.undo()->undoText(), QString("Move 7 nodes"));
    QCOMPARE(d.text(), QString(kExpected));
    QCOMPARE(d.canvas()->nodeItem("mu")->pos(), d.model()->layout()->position("mu"));
    const QString shots = qEnvironmentVariable("VARIATE_SCREENSHOT_DIR");
    if (!shots.isEmpty()) {
      d.panel()->resize(1280, 760);
      d.model()->setSelection({"tau"});
      d.canvas()->zoomToFit();
      QTest::qWait(20);
      QVERIFY(d.panel()->grab().save(QDir(shots).filePath("canvas_eight_schools_built.png")));
    }
  }

 private:
  // NUTS on the canvas-built text with the reference data, judged as the reference-posterior
  // test judges it: means within 4 standard errors, sds within max(10%, 4/sqrt(2 ESS)).
  // Returns every column's diagnostics for the canvas.
  QHash<QString, ParameterDiagnostics> samplesLikeTheReference(const QString& text) {
    QHash<QString, ParameterDiagnostics> diagnostics;
    namespace vt = variate;
    const vt::Data data = vt::io::parse_json_data(readText(kFolder + "/data.json").toStdString(), "data.json");
    const auto compiled = vt::model::compile_model(vt::model::Source("canvas.vmod", text.toStdString()), &data);
    if (!compiled.ok() || !compiled.model) {
      QTest::qFail(compiled.report().c_str(), __FILE__, __LINE__);
      return diagnostics;
    }
    const auto& model = *compiled.model;
    const auto chains = vt::sample_nuts(model.target(), vt::NutsOptions().chains(4).warmup(1000).draws(1000).seed(7));
    const vt::DrawColumns columns = model.draw_columns();
    const auto names = columns.names(vt::NameStyle::Bracketed);
    std::vector<std::vector<std::vector<double>>> rows;  // [chain][draw][column]
    for (const auto& chain : chains) {
      const std::vector<std::vector<double>> sampled(chain.positions.begin() + chain.warmup_iterations,
                                                     chain.positions.end());
      rows.push_back(columns.rows(sampled));
    }
    auto columnDraws = [&](size_t column) {
      vt::diagnostics::Draws draws;
      for (const auto& chain : rows) {
        std::vector<double> values;
        for (const auto& row : chain) values.push_back(row[column]);
        draws.push_back(values);
      }
      return draws;
    };
    for (size_t column = 0; column < names.size(); ++column) {
      const auto s = vt::diagnostics::summarize(names[column], columnDraws(column));
      diagnostics.insert(QString::fromStdString(names[column]),
                         {s.r_hat, s.ess_bulk, s.mean, s.sd, false, s.ess_tail, 4});
    }
    const json reference = json::parse(readText(kFolder + "/reference.json").toStdString());
    const double referenceDraws = reference.value("ndraws", 10000);
    QStringList failures;
    int compared = 0;
    for (const auto& [parameter, r] : reference["parameters"].items()) {
      const auto it = std::find(names.begin(), names.end(), parameter);
      if (it == names.end()) {
        failures << QString::fromStdString(parameter) + ": missing";
        continue;
      }
      const auto s = vt::diagnostics::summarize(parameter, columnDraws(static_cast<size_t>(it - names.begin())));
      const double refMean = r["mean"], refSd = r["sd"];
      const double se = std::sqrt(s.mcse_mean * s.mcse_mean + refSd * refSd / referenceDraws);
      const double tolerance = std::max(0.10, 4 / std::sqrt(2 * std::max(s.ess_bulk, 1.0)));
      if (!(std::abs(s.mean - refMean) <= 4 * se)) {
        failures << QString("%1: mean %2 vs %3").arg(QString::fromStdString(parameter)).arg(s.mean).arg(refMean);
      }
      if (!(std::abs(s.sd / refSd - 1) <= tolerance)) {
        failures << QString("%1: sd %2 vs %3").arg(QString::fromStdString(parameter)).arg(s.sd).arg(refSd);
      }
      if (!(s.r_hat < 1.01)) failures << QString("%1: r_hat %2").arg(QString::fromStdString(parameter)).arg(s.r_hat);
      ++compared;
    }
    if (!failures.isEmpty()) QTest::qFail(qPrintable(failures.join("\n")), __FILE__, __LINE__);
    if (compared != 10) QTest::qFail("expected theta[1..8], mu and tau", __FILE__, __LINE__);
    return diagnostics;
  }
};

QTEST_MAIN(TestCanvasBuild)
#include "tst_canvas_build.moc"
