// Canvas edits through the widgets: renaming updates every reference in the text (and
// nothing else); invalid edits — a cycle, a type mismatch, an undefined name, a taken name,
// deleting a node others read, a discrete prior — are refused with a message on the canvas
// and leave the model unchanged; multi-select, delete, copy and paste, zoom; diagnostics
// tint the nodes.

#include <QApplication>
#include <QClipboard>
#include <QLabel>

#include "tests/ui/tst_canvas_driver.h"
#include "ui/canvas/run_diagnostics.h"
#include "ui/document/run_data.h"

using namespace canvas_test;

namespace {

QString eightSchools() { return readText(referenceFolder("eight_schools-eight_schools_noncentered") + "/model.vmod"); }

}  // namespace

class TestCanvasEdits : public QObject {
  Q_OBJECT

 private slots:
  void renameUpdatesEveryReference() {
    const QString text = readText(QStringLiteral(QT_TESTCASE_SOURCEDIR "/../projects/radon/radon.vmod"));
    CanvasDriver d(text);
    QVERIFY(d.clickNode("a"));
    QCOMPARE(d.model()->selection(), QStringList{"a"});
    QVERIFY(d.typeInto("nameEdit", "county_effect"));
    QString expected = text;
    expected.replace("\na = mu_a", "\ncounty_effect = mu_a");
    expected.replace("Normal(a[county_idx]", "Normal(county_effect[county_idx]");
    QCOMPARE(d.text(), expected);  // the comment's "a common distribution" and mu_a, a_raw stay
    QVERIFY(d.canvas()->nodeItem("county_effect"));
    QVERIFY(!d.canvas()->nodeItem("a"));

    // A size: the declaration, the sizes that use it and the plate follow.
    QVERIFY(d.clickNode("J"));
    QVERIFY(d.typeInto("nameEdit", "n_counties"));
    expected.replace("data J: int", "data n_counties: int").replace("a_raw[J]", "a_raw[n_counties]");
    QCOMPARE(d.text(), expected);
    QVERIFY(d.canvas()->canvasScene()->plateItem("n_counties"));
    // The node kept its place; one undo step per rename.
    d.undo()->undo();
    QVERIFY(d.text().contains("data J: int"));
    d.undo()->undo();
    QCOMPARE(d.text(), text);
  }

  void invalidEditsAreRefused() {
    const QString text = eightSchools();
    CanvasDriver d(text);
    const int steps = d.undo()->count();

    // A cycle: theta reads mu, so mu cannot read theta.
    QVERIFY(d.dragConnection("theta", "mu", "mu"));
    QVERIFY2(d.canvas()->message().contains("cycle in the model"), qPrintable(d.canvas()->message() + " / " + d.text()));
    QCOMPARE(d.text(), text);
    QCOMPARE(d.undo()->count(), steps);

    // An undefined name typed into an expression: checked live, refused on Enter.
    QVERIFY(d.clickNode("theta"));
    QLineEdit* expression = d.field<QLineEdit>("expressionEdit");
    QVERIFY(expression);
    QTest::keyClick(expression, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(expression, "theta_trans * ta + mu");
    QVERIFY2(d.panel()->properties()->status().contains("did you mean 'tau'"),
             qPrintable(d.panel()->properties()->status()));
    QVERIFY(expression->property("invalid").toBool());
    QTest::keyClick(expression, Qt::Key_Return);
    QVERIFY(d.canvas()->message().contains("undefined name 'ta'"));
    QCOMPARE(d.text(), text);

    // A taken name, and deleting a node another reads.
    QVERIFY(d.clickNode("tau"));
    QVERIFY(d.typeInto("nameEdit", "mu"));
    QVERIFY2(d.canvas()->message().contains("already has a node named 'mu'"), qPrintable(d.canvas()->message()));
    QVERIFY(d.clickNode("mu"));
    d.key(Qt::Key_Delete);
    QVERIFY2(d.canvas()->message().contains("'mu' is read by theta"), qPrintable(d.canvas()->message()));
    QVERIFY(d.canvas()->nodeItem("mu"));

    // A discrete prior: parameters cannot be discrete.
    QVERIFY(d.typeInto("distributionCombo", "Poisson"));
    QVERIFY2(d.canvas()->message().contains("discrete"), qPrintable(d.canvas()->message()));
    QCOMPARE(d.text(), text);
    QCOMPARE(d.undo()->count(), steps);

    // A type mismatch: a scalar where MultiNormal takes a covariance matrix.
    const QString added = d.addFromPalette({NodeTemplate::Kind::Random, "MultiNormal"});
    QCOMPARE(added, QString("multinormal"));
    const QString withNode = d.text();
    QVERIFY(d.dragConnection("mu", "multinormal", "Sigma"));
    QVERIFY2(d.canvas()->message().contains("type mismatch"), qPrintable(d.canvas()->message()));
    QVERIFY(d.canvas()->message().contains("a matrix"));
    QCOMPARE(d.text(), withNode);
    // ... while a fitting connection is accepted.
    QVERIFY(d.dragConnection("theta", "multinormal", "mu"));
    QVERIFY(d.text().contains("multinormal ~ MultiNormal(theta, 1)"));
  }

  // Ranks and constraints come from the checked model: a constrained vector cannot be a
  // covariance matrix, a Cholesky factor can; each node's tooltip says what its value is.
  void constrainedValuesKeepTheirShape() {
    CanvasDriver d("data K: int\nc: ordered[K] ~ Normal(0, 1)\nL: cholesky_corr[K] ~ LKJCorrCholesky(2)\n"
                   "m ~ Normal(0, 1)\nx ~ MultiNormal(0, 1)\n");
    QVERIFY2(d.model()->snapshot().ok(), qPrintable(d.model()->snapshot().error()));
    const QString text = d.text();
    QVERIFY(d.dragConnection("c", "x", "Sigma"));
    QVERIFY2(d.canvas()->message().contains("but 'c' is a vector"), qPrintable(d.canvas()->message()));
    QCOMPARE(d.text(), text);
    QVERIFY(d.canvas()->nodeItem("c")->toolTip().contains("value: a vector, ordered"));
    QVERIFY(d.canvas()->nodeItem("L")->toolTip().contains("value: a matrix, cholesky_corr"));
    QVERIFY(d.canvas()->nodeItem("m")->toolTip().contains("value: a scalar"));
    QVERIFY(d.canvas()->nodeItem("K")->toolTip().contains("value: a scalar"));
    QVERIFY(d.dragConnection("L", "x", "Sigma"));
    QVERIFY2(d.text().contains("x ~ MultiNormal(0, L)"), qPrintable(d.text() + d.canvas()->message()));
    // A value whose shape depends on its arguments is not judged: m's mean makes it a vector.
    QVERIFY(d.clickNode("m"));
    QVERIFY(d.typeInto("argument:mu", "c"));
    QVERIFY(!d.canvas()->nodeItem("m")->toolTip().contains("value:"));
    QVERIFY(d.dragConnection("m", "x", "mu"));
    QVERIFY2(d.text().contains("x ~ MultiNormal(m, L)"), qPrintable(d.text() + d.canvas()->message()));
  }

  void selectDeleteCopyPaste() {
    CanvasDriver d(eightSchools());
    // Ctrl+click selects several nodes.
    QVERIFY(d.clickNode("mu"));
    QVERIFY(d.clickNode("tau", Qt::ControlModifier));
    QCOMPARE(d.model()->selection(), (QStringList{"mu", "tau"}));
    d.key(Qt::Key_C, Qt::ControlModifier);
    QCOMPARE(QApplication::clipboard()->text(), QString("mu ~ Normal(0, 5)\ntau ~ HalfCauchy(5)\n"));
    d.key(Qt::Key_V, Qt::ControlModifier);
    QVERIFY2(d.text().endsWith("y ~ Normal(theta, sigma)\nmu2 ~ Normal(0, 5)\ntau2 ~ HalfCauchy(5)\n"), qPrintable(d.text()));
    QCOMPARE(d.model()->selection(), (QStringList{"mu2", "tau2"}));
    QCOMPARE(d.canvas()->nodeItem("mu2")->pos(), d.canvas()->nodeItem("mu")->pos() + QPointF(40, 40));
    // Pasted references among the pasted nodes follow their new names; others stay.
    QVERIFY(d.clickNode("theta_trans"));
    QVERIFY(d.clickNode("theta", Qt::ControlModifier));
    d.key(Qt::Key_C, Qt::ControlModifier);
    d.key(Qt::Key_V, Qt::ControlModifier);
    QVERIFY2(d.text().contains("theta_trans2[J] ~ Normal(0, 1)\ntheta2 = theta_trans2 * tau + mu\n"), qPrintable(d.text()));

    // A rubber band over mu and tau selects both.
    d.canvas()->zoomToFit();
    const QRectF both = d.canvas()->nodeItem("mu")->sceneBody().united(d.canvas()->nodeItem("tau")->sceneBody());
    const QPoint from = d.viewportPoint(both.topLeft() - QPointF(8, 8));
    const QPoint to = d.viewportPoint(both.bottomRight() + QPointF(8, 8));
    QTest::mousePress(d.viewport(), Qt::LeftButton, {}, from);
    QTest::mouseMove(d.viewport(), (from + to) / 2);
    QTest::mouseMove(d.viewport(), to);
    QTest::mouseRelease(d.viewport(), Qt::LeftButton, {}, to);
    QVERIFY2(d.model()->selection().contains("mu") && d.model()->selection().contains("tau"),
             qPrintable(d.model()->selection().join(", ")));
    QVERIFY(d.clickNode("theta_trans2"));
    QVERIFY(d.clickNode("theta2", Qt::ControlModifier));

    // Delete several at once, one undo step.
    const QString before = d.text();
    d.key(Qt::Key_Delete);
    QVERIFY(!d.canvas()->nodeItem("theta2"));
    QVERIFY(!d.canvas()->nodeItem("theta_trans2"));
    d.undo()->undo();
    QCOMPARE(d.text(), before);
    QCOMPARE(d.model()->selection(), (QStringList{"theta_trans2", "theta2"}));

    // Remove an edge: y's mu goes back to its default.
    d.model()->setSelection({});
    d.model()->disconnectNodes("theta", "y");
    QVERIFY(d.text().contains("y ~ Normal(0, sigma)"));
    QVERIFY(!d.model()->disconnectNodes("mu", "theta"));  // inside an expression
    QVERIFY(d.canvas()->message().contains("expression"));
  }

  // A user function is a node of its own: drawn once, with a dotted arrow to each node
  // that calls it; renamed with its calls, its body edited and checked, deleted only when
  // nothing calls it, never connected to a slot; added from the palette.
  void functionsAreNodes() {
    const QString text =
        "function scaled(x: real, s: real): real = x * s\n\nmu ~ Normal(0, 1)\n"
        "tau ~ HalfNormal(1)\ntheta = scaled(mu, tau)\n";
    CanvasDriver d(text);
    QVERIFY2(d.model()->snapshot().ok(), qPrintable(d.model()->snapshot().error()));
    NodeItem* function = d.canvas()->nodeItem("scaled");
    QVERIFY(function);
    QCOMPARE(function->node().kind, CanvasNode::Kind::Function);
    QVERIFY(function->toolTip().contains("= x * s"));
    EdgeItem* call = nullptr;
    for (auto* edge : d.canvas()->canvasScene()->edgeItems()) {
      if (edge->edge().from == "scaled") call = edge;
    }
    QVERIFY(call);
    QCOMPARE(call->edge().to, QString("theta"));
    QCOMPARE(call->pen().style(), Qt::DotLine);
    QVERIFY(call->toolTip().contains("theta calls scaled"));
    QVERIFY(function->pos().y() < d.canvas()->nodeItem("theta")->pos().y());

    // Its properties: the signature, and the body, checked as typed.
    QVERIFY(d.clickNode("scaled"));
    QVERIFY(d.panel()->properties()->findChild<QLabel*>("propertiesTitle")->text().contains("function"));
    QCOMPARE(d.field<QLabel>("signatureLabel")->text(), QString("(x: real, s: real): real"));
    QVERIFY(!d.field<QComboBox>("distributionCombo"));
    QVERIFY(d.typeInto("expressionEdit", "x * q"));
    QVERIFY2(d.canvas()->message().contains("'q' is not an argument of 'scaled'"), qPrintable(d.canvas()->message()));
    QCOMPARE(d.text(), text);
    QVERIFY(d.typeInto("expressionEdit", "x * s + 1"));
    QVERIFY2(d.text().startsWith("function scaled(x: real, s: real): real = x * s + 1\n"), qPrintable(d.text()));

    // Renamed with its calls; a slot takes no function; deleting it is refused while called.
    QVERIFY(d.clickNode("scaled"));
    QVERIFY(d.typeInto("nameEdit", "scale_by"));
    QVERIFY2(d.text().contains("theta = scale_by(mu, tau)"), qPrintable(d.text()));
    QVERIFY(d.canvas()->nodeItem("scale_by"));
    const QString before = d.text();
    QVERIFY(d.addFromPalette({NodeTemplate::Kind::Random, "Normal"}) == "normal");
    const QString withNormal = d.text();
    QVERIFY(d.dragConnection("scale_by", "normal", "mu"));
    QVERIFY2(d.canvas()->message().contains("'scale_by' is a function"), qPrintable(d.canvas()->message()));
    QCOMPARE(d.text(), withNormal);
    d.undo()->undo();
    QCOMPARE(d.text(), before);
    QVERIFY(d.clickNode("scale_by"));
    d.key(Qt::Key_Delete);
    QVERIFY2(d.canvas()->message().contains("'scale_by' is read by theta"), qPrintable(d.canvas()->message()));
    QCOMPARE(d.text(), before);

    // Copied and pasted: a second function beside the first, renamed.
    d.key(Qt::Key_C, Qt::ControlModifier);
    d.key(Qt::Key_V, Qt::ControlModifier);
    QVERIFY2(d.text().startsWith("function scale_by(x: real, s: real): real = x * s + 1\n"
                                 "function scale_by2(x: real, s: real): real = x * s + 1\n\nmu ~"),
             qPrintable(d.text()));
    QCOMPARE(d.model()->selection(), QStringList{"scale_by2"});
    d.undo()->undo();
    QCOMPARE(d.text(), before);

    // From the palette: after the other functions; deleted when nothing calls it.
    QCOMPARE(d.addFromPalette({NodeTemplate::Kind::Function, {}}), QString("f"));
    QVERIFY2(d.text().startsWith("function scale_by(x: real, s: real): real = x * s + 1\n"
                                 "function f(x: real): real = x\n\nmu ~"),
             qPrintable(d.text()));
    QCOMPARE(d.canvas()->nodeItem("f")->node().kind, CanvasNode::Kind::Function);
    QVERIFY(d.clickNode("f"));
    d.key(Qt::Key_Delete);
    QVERIFY(!d.canvas()->nodeItem("f"));
    QCOMPARE(d.text(), before);
  }

  void zoomAndPan() {
    CanvasDriver d(eightSchools());
    const double start = d.canvas()->zoom();
    d.key(Qt::Key_Plus);
    QVERIFY(d.canvas()->zoom() > start * 1.2);
    d.key(Qt::Key_Minus);
    d.key(Qt::Key_Minus);
    QVERIFY(d.canvas()->zoom() < start);
    QWheelEvent wheel(QPointF(200, 200), d.viewport()->mapToGlobal(QPointF(200, 200)), {}, QPoint(0, 240),
                      Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
    const double beforeWheel = d.canvas()->zoom();
    QApplication::sendEvent(d.viewport(), &wheel);
    QVERIFY(d.canvas()->zoom() > beforeWheel * 1.3);
    d.key(Qt::Key_0);  // fit
    const QRectF visible = d.canvas()->mapToScene(d.viewport()->rect()).boundingRect();
    QVERIFY(visible.contains(d.canvas()->canvasScene()->graphBounds()));
    // Middle-button pan moves the view, not the nodes.
    const QPointF node = d.canvas()->nodeItem("mu")->pos();
    const QPointF centre = d.canvas()->mapToScene(d.viewport()->rect().center());
    d.key(Qt::Key_Plus);
    d.key(Qt::Key_Plus);
    const QPointF zoomedCentre = d.canvas()->mapToScene(d.viewport()->rect().center());
    QTest::mousePress(d.viewport(), Qt::MiddleButton, {}, QPoint(300, 300));
    QTest::mouseMove(d.viewport(), QPoint(200, 250));
    QTest::mouseRelease(d.viewport(), Qt::MiddleButton, {}, QPoint(200, 250));
    QVERIFY(d.canvas()->mapToScene(d.viewport()->rect().center()) != zoomedCentre);
    QCOMPARE(d.canvas()->nodeItem("mu")->pos(), node);
    Q_UNUSED(centre);
  }

  void diagnosticsTintTheNodes() {
    CanvasDriver d(eightSchools());
    QHash<QString, ParameterDiagnostics> run;
    run.insert("mu", {1.002, 2100, 4.4, 3.3, false, 1900, 4});
    run.insert("tau", {1.07, 80, 3.6, 3.2, true, 95, 4});
    for (int j = 1; j <= 8; ++j) {
      run.insert(QString("theta_trans[%1]").arg(j), {1.004, 900.0 + j, 0.1 * j, 1, false, 800, 4});
    }
    run.insert("theta_trans[3]", {1.02, 350, 0.3, 1, false, 700, 4});
    const QSizeF plain = d.canvas()->nodeItem("mu")->sceneBody().size();
    d.model()->setDiagnostics(run);
    const auto& byNode = d.model()->diagnostics();
    QCOMPARE(byNode.value("mu").health(), NodeDiagnostics::Health::Good);
    QCOMPARE(byNode.value("tau").health(), NodeDiagnostics::Health::HighRhat);
    QVERIFY(byNode.value("tau").divergent);
    QCOMPARE(byNode.value("theta_trans").health(), NodeDiagnostics::Health::HighRhat);
    QCOMPARE(byNode.value("theta_trans").elements, 8);
    QCOMPARE(byNode.value("theta_trans").worstRhat, 1.02);
    QCOMPARE(byNode.value("mu").estimateText(), QString("4.4 ± 3.3"));
    QCOMPARE(byNode.value("theta_trans").estimateText(), QString("8 values in [0.1, 0.8]"));
    // Latent nodes show the estimate (a taller body), data nodes do not.
    QVERIFY(d.canvas()->nodeItem("mu")->sceneBody().height() > plain.height());
    QVERIFY(d.canvas()->nodeItem("tau")->toolTip().contains("divergent"));
    QVERIFY(!d.canvas()->nodeItem("J")->toolTip().contains("R̂"));
    d.model()->setDiagnostics({});
    QCOMPARE(d.canvas()->nodeItem("mu")->sceneBody().size(), plain);
  }

  void divergencesPointAtTheirParameters() {
    // Two parameters; the divergent draws sit at small tau and anywhere in mu.
    RunData run;
    run.columnNames = {"mu", "tau"};
    run.parameterColumns = 2;
    for (int c = 0; c < 2; ++c) {
      auto block = std::make_shared<DrawBlock>();
      block->chain = c;
      block->columns = 2;
      for (int i = 0; i < 1000; ++i) {
        const double tau = 0.01 + i / 100.0;
        block->values.push_back(std::sin(i * 0.7 + c) * 3);
        block->values.push_back(tau);
        SamplerRow row;
        row.divergent = i < 40 && i % 2 == 0;
        block->stats.push_back(row);
      }
      ChainDraws chain;
      chain.append(block);
      run.chains.push_back(chain);
    }
    variate::diagnostics::ParameterSummary mu{"mu", 0.1, 2.1, 0.05, 0.04, -3, 0, 3, 1800, 1700, 1.001};
    variate::diagnostics::ParameterSummary tau{"tau", 5, 2.9, 0.06, 0.05, 0.5, 5, 9.5, 1500, 1400, 1.003};
    run.summary.rows = {mu, tau};
    const auto diagnostics = runDiagnostics(run);
    QVERIFY(diagnostics.value("tau").divergent);
    QVERIFY(!diagnostics.value("mu").divergent);
    QCOMPARE(diagnostics.value("mu").rhat, 1.001);
    QCOMPARE(diagnostics.value("tau").ess, 1500.0);
  }
};

QTEST_MAIN(TestCanvasEdits)
#include "tst_canvas_edits.moc"
