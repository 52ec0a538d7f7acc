// Layout of models opened from text: no node overlaps another, plates nest as the model
// nests them and hold exactly their nodes (bounding boxes checked for every reference model
// and example project); unchanged nodes keep their places across text edits; positions are
// saved with the project. With VARIATE_SCREENSHOT_DIR set it writes canvas_*.png there.

#include "tests/ui/tst_canvas_driver.h"

using namespace canvas_test;


namespace {

QStringList modelFiles() {
  QStringList files;
  const QDir reference(QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/reference"));
  for (const auto& name : reference.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
    files << reference.filePath(name + "/model.vmod");
  }
  const QDir projects(QStringLiteral(QT_TESTCASE_SOURCEDIR "/../projects"));
  for (const auto& name : projects.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
    for (const auto& model : QDir(projects.filePath(name)).entryList({"*.vmod"})) {
      files << projects.filePath(name + "/" + model);
    }
  }
  return files;
}

QString dataNextTo(const QString& modelFile) {
  const QString path = QFileInfo(modelFile).absolutePath() + "/data.json";
  return QFileInfo::exists(path) ? readText(path) : QString();
}

bool isAncestor(const ModelSnapshot& graph, const QString& ancestor, const QString& plate) {
  for (const CanvasPlate* p = graph.plate(plate); p && !p->parent.isEmpty(); p = graph.plate(p->parent)) {
    if (p->parent == ancestor) return true;
  }
  return false;
}

// Every overlap of the drawn graph, described.
QStringList overlaps(CanvasScene* scene, const ModelSnapshot& graph) {
  QStringList problems;
  const auto nodes = scene->nodeItems();
  for (int i = 0; i < nodes.size(); ++i) {
    for (int j = i + 1; j < nodes.size(); ++j) {
      if (nodes[i]->sceneBody().intersects(nodes[j]->sceneBody())) {
        problems << QString("nodes %1 and %2 overlap").arg(nodes[i]->id(), nodes[j]->id());
      }
    }
  }
  const auto plates = scene->plateItems();
  for (auto* plate : plates) {
    if (plate->box().isEmpty()) problems << QString("plate %1 has no box").arg(plate->plate().id);
    for (auto* node : nodes) {
      const bool member = node->node().plates.contains(plate->plate().id);
      if (member && !plate->box().contains(node->sceneBody())) {
        problems << QString("node %1 sticks out of its plate %2").arg(node->id(), plate->plate().id);
      }
      if (!member && plate->box().intersects(node->sceneBody())) {
        problems << QString("node %1 overlaps plate %2").arg(node->id(), plate->plate().id);
      }
    }
    for (auto* other : plates) {
      if (other == plate) continue;
      const QString a = plate->plate().id, b = other->plate().id;
      if (isAncestor(graph, a, b)) {
        if (!plate->box().contains(other->box())) problems << QString("plate %1 does not hold %2").arg(a, b);
      } else if (!isAncestor(graph, b, a) && plate->box().intersects(other->box())) {
        if (a < b) problems << QString("plates %1 and %2 overlap").arg(a, b);
      }
    }
  }
  return problems;
}

}  // namespace

class TestCanvasLayout : public QObject {
  Q_OBJECT

 private slots:
  void modelsFromTextDoNotOverlap_data() {
    QTest::addColumn<QString>("file");
    for (const QString& file : modelFiles()) {
      QTest::newRow(qPrintable(QFileInfo(file).dir().dirName())) << file;
    }
  }
  void modelsFromTextDoNotOverlap() {
    QFETCH(QString, file);
    CanvasDriver d(readText(file), dataNextTo(file));
    const ModelSnapshot& graph = d.model()->shownSnapshot();
    QVERIFY2(graph.ok(), qPrintable(graph.error()));
    CanvasScene* scene = d.canvas()->canvasScene();
    QCOMPARE(scene->nodeItems().size(), graph.nodes().size());
    QCOMPARE(scene->plateItems().size(), graph.plates().size());
    int drawn = 0;
    for (const auto& edge : graph.edges()) drawn += edge.drawn() ? 1 : 0;
    QCOMPARE(scene->edgeItems().size(), drawn);
    const QStringList problems = overlaps(scene, graph);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join("\n")));
    // Top-down: every drawn edge goes from a higher layer to a lower one, but a guide's
    // read, which goes back up the model (x -> encoder -> z), and an observed variable's
    // data read by what it is observed through (arma11's y -> nu -> y), the other way.
    for (auto* edge : scene->edgeItems()) {
      if (edge->edge().guide || edge->edge().feedback) {
        QVERIFY2(edge->fromItem()->pos().y() > edge->toItem()->pos().y(),
                 qPrintable(edge->edge().from + " -> " + edge->edge().to));
        continue;
      }
      QVERIFY2(edge->fromItem()->pos().y() < edge->toItem()->pos().y(),
               qPrintable(edge->edge().from + " -> " + edge->edge().to));
    }

    const QString shots = qEnvironmentVariable("VARIATE_SCREENSHOT_DIR");
    const QString name = QFileInfo(file).dir().dirName();
    static const QMap<QString, QString> kShots = {{"eight_schools-eight_schools_noncentered", "eight_schools"},
                                                  {"diamonds-diamonds", "diamonds"},
                                                  {"gp_pois_regr-gp_pois_regr", "gp_pois_regr"},
                                                  {"hudson_lynx_hare-lotka_volterra", "lotka_volterra"}};
    if (!shots.isEmpty() && kShots.contains(name)) {
      d.panel()->resize(1280, 760);
      QTest::qWait(50);
      d.canvas()->zoomToFit();
      d.model()->setSelection({graph.nodes().last().id});
      const QImage image = d.panel()->grab().toImage();
      QVERIFY(image.save(QDir(shots).filePath("canvas_" + kShots.value(name) + ".png")));
    }
  }

  void textEditsKeepUnchangedNodesInPlace() {
    const QString text = readText(referenceFolder("eight_schools-eight_schools_noncentered") + "/model.vmod");
    CanvasDriver d(text);
    const NodePositions before = d.model()->layout()->positions();
    // Another prior, tau's scale changed, and a new node reading tau.
    QString edited = text;
    edited.replace("tau ~ HalfCauchy(5)", "tau ~ HalfCauchy(2.5)");
    edited += "tau_sq = tau ^ 2\nnu ~ Gamma(2, 0.1)\n";
    d.document()->setModelText(edited);
    QVERIFY(d.model()->snapshot().ok());
    for (const char* id : {"J", "y", "sigma", "mu", "tau", "theta_trans", "theta"}) {
      QCOMPARE(d.canvas()->nodeItem(id)->pos(), before.value(id));
    }
    QVERIFY(d.canvas()->nodeItem("tau_sq"));
    QVERIFY(d.canvas()->nodeItem("nu"));
    const QStringList problems = overlaps(d.canvas()->canvasScene(), d.model()->shownSnapshot());
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join("\n")));
    // Text with an error: the canvas keeps showing the last model that checked.
    d.document()->setModelText(edited + "broken ~ Normal(0, undefined_name)\n");
    QVERIFY(!d.model()->snapshot().ok());
    QVERIFY(d.model()->snapshot().error().contains("undefined_name"));
    QCOMPARE(d.canvas()->canvasScene()->nodeItems().size(), 9);
    QVERIFY(!d.model()->addNode({NodeTemplate::Kind::Random, "Normal"}, {}));
    QCOMPARE(d.canvas()->canvasScene()->nodeItems().size(), 9);
  }

  void positionsAreSavedWithTheProject() {
    CanvasDriver d(readText(referenceFolder("arK-arK") + "/model.vmod"));
    const QPointF start = d.canvas()->nodeItem("sigma")->pos();
    QVERIFY(d.dragNode("sigma", QPoint(80, 30)));
    const QPointF moved = d.canvas()->nodeItem("sigma")->pos();
    QVERIFY(moved != start);
    QCOMPARE(d.model()->layout()->position("sigma"), moved);
    QCOMPARE(d.undo()->undoText(), QString("Move sigma"));
    d.undo()->undo();
    QCOMPARE(d.canvas()->nodeItem("sigma")->pos(), start);
    d.undo()->redo();
    QCOMPARE(d.canvas()->nodeItem("sigma")->pos(), moved);

    QString error;
    QVERIFY2(d.document()->save(&error), qPrintable(error));
    const NodePositions saved = d.model()->layout()->positions();
    d.reopen();
    for (const QString& id : d.model()->shownSnapshot().nodeIds()) {
      QCOMPARE(d.canvas()->nodeItem(id)->pos(), saved.value(id));
    }
    QCOMPARE(d.canvas()->nodeItem("sigma")->pos(), moved);
  }

  void layoutJsonRejectsOtherDocuments() {
    NodePositions positions;
    QString error;
    QVERIFY(!CanvasLayout::fromJson("[1, 2]", &positions, &error));
    QVERIFY(!CanvasLayout::fromJson(R"({"format": "variate-canvas-layout", "version": 1, "nodes": {"mu": [1]}})",
                                    &positions, &error));
    QVERIFY(error.contains("mu"));
    CanvasLayout layout;
    layout.setPositions({{"mu", QPointF(1.5, -2)}, {"tau", QPointF(3, 4)}});
    QVERIFY(CanvasLayout::fromJson(layout.toJson({"mu", "tau"}), &positions, &error));
    QCOMPARE(positions, layout.positions());
  }
};

QTEST_MAIN(TestCanvasLayout)
#include "tst_canvas_layout.moc"
