// The graph the canvas draws: node kinds and texts, edges with their roles, plates nested
// as the sizes are, with and without the shapes a compiled model knows.

#include <map>
#include <set>

#include <QtTest/QtTest>

#include "engine/io/data_file.h"
#include "engine/model/compile.h"
#include "engine/model/graph.h"
#include "engine/model/parser.h"

namespace vm = variate::model;

Q_DECLARE_METATYPE(vm::NodeKind)
Q_DECLARE_METATYPE(vm::NodeGlyph)

namespace {

// A model with mixture and multivariate nodes, a constraint and a reduction.
const char* const kMixtureModel = R"(data N: int
data K: int
data y: real[N]
data Y: real[N, K]
data Z: real[N, K]
data S: real[K, K]
data a: real[2]
w: simplex[2] ~ Dirichlet(a)
mu: ordered[2] ~ Normal(0, 5)
sigma ~ HalfNormal(1)
y ~ Mixture(w, Normal(mu, sigma))
m[K] ~ Normal(0, 1)
L: cholesky_corr[K] ~ LKJCorrCholesky(2)
Y ~ MultiNormal(m, S)
Z ~ MultiNormal(m, scale_tril = L)
total = sum(m)
last = m[K] * K
)";

const char* const kMixtureData = R"({"N": 4, "K": 3, "y": [-1.0, 0.5, 2.0, 3.0],
  "Y": [[0.1, 0.2, 0.3], [1.0, -1.0, 0.0], [0.5, 0.5, 0.5], [-0.2, 0.3, 1.2]],
  "Z": [[0.3, 0.2, 0.1], [0.0, -1.0, 1.0], [0.4, 0.6, 0.5], [-0.7, 0.1, 1.0]],
  "S": [[1.0, 0.2, 0.0], [0.2, 1.0, 0.0], [0.0, 0.0, 1.0]], "a": [1.0, 1.0]})";

// Model files by short name, relative to tests/.
const std::map<QString, QString>& model_files() {
  static const std::map<QString, QString> files = {
      {"eight_schools", "data/reference/eight_schools-eight_schools_noncentered/model.vmod"},
      {"arK", "data/reference/arK-arK/model.vmod"},
      {"diamonds", "data/reference/diamonds-diamonds/model.vmod"},
      {"gp_pois_regr", "data/reference/gp_pois_regr-gp_pois_regr/model.vmod"},
      {"radon", "../projects/radon/radon.vmod"},
      {"wells", "../projects/arsenic_wells/wells.vmod"},
      {"lotka_volterra", "data/reference/hudson_lynx_hare-lotka_volterra/model.vmod"},
  };
  return files;
}

// Compiled once per model: with data, so both graph flavours can be built.
const vm::CompileResult& compiled(const QString& name) {
  static std::map<QString, vm::CompileResult> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  vm::CompileResult result;
  if (name == "mixture") {
    const auto data = variate::io::parse_json_data(kMixtureData, "mixture.json");
    result = vm::compile_model(vm::Source("mixture.vmod", kMixtureModel), &data);
  } else {
    const QString path = QStringLiteral(QT_TESTCASE_SOURCEDIR "/") + model_files().at(name);
    const std::string data_path = QFileInfo(path).dir().filePath("data.json").toStdString();
    const auto data = variate::io::read_data_file(data_path);
    result = vm::compile_model(
        vm::Source(path.toStdString(), variate::io::read_text_file(path.toStdString())), &data);
  }
  if (!result.ok()) qFatal("%s", result.report().c_str());
  return cache.emplace(name, std::move(result)).first->second;
}

vm::ModelGraph graph_of(const QString& name, bool shapes) {
  const auto& result = compiled(name);
  return vm::build_graph(*result.checked, shapes ? &*result.model : nullptr);
}

QString joined(const std::vector<std::string>& parts) {
  QStringList list;
  for (const auto& p : parts) list << QString::fromStdString(p);
  return list.join(',');
}

QStringList all_models() {
  QStringList names;
  for (const auto& [name, file] : model_files()) names << name;
  return names << "mixture";
}

}  // namespace

class TestGraph : public QObject {
  Q_OBJECT

 private slots:
  void kinds_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("node");
    QTest::addColumn<vm::NodeKind>("kind");
    QTest::addColumn<vm::NodeGlyph>("glyph");
    using K = vm::NodeKind;
    using G = vm::NodeGlyph;
    QTest::newRow("size") << "eight_schools" << "J" << K::data << G::rectangle;
    QTest::newRow("observed") << "eight_schools" << "y" << K::observed << G::shaded_ellipse;
    QTest::newRow("latent") << "eight_schools" << "theta_trans" << K::latent << G::ellipse;
    QTest::newRow("derived") << "eight_schools" << "theta" << K::derived << G::double_outline;
    QTest::newRow("transformed") << "diamonds" << "Xc" << K::transformed_data << G::double_outline;
    QTest::newRow("derived late") << "diamonds" << "b_Intercept" << K::derived << G::double_outline;
    QTest::newRow("observed =") << "arK" << "y_target" << K::observed << G::shaded_ellipse;
    QTest::newRow("data read") << "arK" << "y" << K::data << G::rectangle;
    QTest::newRow("constrained") << "mixture" << "L" << K::latent << G::ellipse;
  }
  void kinds() {
    QFETCH(QString, model);
    QFETCH(QString, node);
    QFETCH(vm::NodeKind, kind);
    QFETCH(vm::NodeGlyph, glyph);
    const auto graph = graph_of(model, false);
    const vm::GraphNode* n = graph.find_node(node.toStdString());
    QVERIFY(n);
    QCOMPARE(n->kind, kind);
    QCOMPARE(vm::node_glyph(n->kind), glyph);
  }

  void plates_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("shapes");
    QTest::addColumn<QString>("node");
    QTest::addColumn<QString>("plates");
    for (bool shapes : {false, true}) {
      const auto row = [shapes](const char* model, const char* node, const char* plates) {
        QTest::addRow("%s %s %s", model, node, shapes ? "shaped" : "unshaped")
            << model << shapes << node << plates;
      };
      for (const char* node : {"y", "sigma", "theta_trans", "theta"}) row("eight_schools", node, "J");
      for (const char* node : {"J", "mu", "tau"}) row("eight_schools", node, "");
      row("arK", "y", "T");
      row("arK", "beta", "K");
      row("arK", "alpha", "");
      row("diamonds", "Y", "N");
      row("diamonds", "X", "N,N/K");
      row("diamonds", "b", "K - 1");
      row("diamonds", "b_Intercept", "");
      for (const char* node : {"x", "k", "f_tilde", "L_cov", "f"}) row("gp_pois_regr", node, "N");
      for (const char* node : {"rho", "alpha", "N"}) row("gp_pois_regr", node, "");
      for (const char* node : {"county_idx", "floor_measure", "log_uppm", "log_radon"}) {
        row("radon", node, "N");
      }
      for (const char* node : {"a_raw", "a"}) row("radon", node, "J");
      for (const char* node : {"mu_a", "sigma_a", "sigma_y"}) row("radon", node, "");
      for (const char* node : {"Y", "Z"}) row("mixture", node, "N,N/K");
      for (const char* node : {"S", "m", "L"}) row("mixture", node, "K");
      for (const char* node : {"a", "w", "mu"}) row("mixture", node, "2");
      row("mixture", "sigma", "");
    }
    // Without shapes, plates are inherited structurally: a slice, a reduction or a lag
    // keeps its argument's plates. The shapes drop those the node no longer spans.
    QTest::newRow("slice unshaped") << "arK" << false << "y_target" << "T";
    QTest::newRow("slice shaped") << "arK" << true << "y_target" << "";
    QTest::newRow("lags unshaped") << "arK" << false << "y_lagged" << "T";
    QTest::newRow("lags shaped") << "arK" << true << "y_lagged" << "";
    QTest::newRow("colmeans unshaped") << "diamonds" << false << "means_X" << "N,N/K";
    QTest::newRow("colmeans shaped") << "diamonds" << true << "means_X" << "";
    // Xc is [N, K - 1]: its rows stay in plate N; its columns are no longer K.
    QTest::newRow("Xc unshaped") << "diamonds" << false << "Xc" << "N,N/K";
    QTest::newRow("Xc shaped") << "diamonds" << true << "Xc" << "N";
    QTest::newRow("sum unshaped") << "mixture" << false << "total" << "K";
    QTest::newRow("sum shaped") << "mixture" << true << "total" << "";
    QTest::newRow("element shaped") << "mixture" << true << "last" << "";
  }
  void plates() {
    QFETCH(QString, model);
    QFETCH(bool, shapes);
    QFETCH(QString, node);
    QFETCH(QString, plates);
    const auto graph = graph_of(model, shapes);
    const vm::GraphNode* n = graph.find_node(node.toStdString());
    QVERIFY(n);
    QCOMPARE(joined(n->plates), plates);
    // Every plate a node is in exists, nested in the one before it.
    std::string parent;
    for (const auto& id : n->plates) {
      const vm::Plate* p = graph.find_plate(id);
      QVERIFY(p);
      QCOMPARE(p->parent, parent);
      parent = id;
    }
  }

  void nested_plates_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("shapes");
    QTest::addColumn<QString>("plates");  // id:size:parent:extent, in order
    QTest::newRow("diamonds") << "diamonds" << false << "N:N::,N/K:K:N:,K - 1:K - 1::";
    QTest::newRow("diamonds shaped") << "diamonds" << true
                                     << "N:N::5000,N/K:K:N:25,K - 1:K - 1::24";
    QTest::newRow("matrix shaped") << "mixture" << true << "N:N::4,N/K:K:N:3,K:K::3,2:2::2";
    QTest::newRow("radon shaped") << "radon" << true << "N:N::919,J:J::85";
  }
  void nested_plates() {
    QFETCH(QString, model);
    QFETCH(bool, shapes);
    QFETCH(QString, plates);
    QStringList actual;
    for (const auto& p : graph_of(model, shapes).plates) {
      actual << QString::fromStdString(p.id + ":" + p.size + ":" + p.parent + ":" +
                                       (p.extent ? std::to_string(*p.extent) : ""));
    }
    QCOMPARE(actual.join(','), plates);
  }

  void edges_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("roles");
    QTest::newRow("mu") << "eight_schools" << "theta" << "y" << "mu";
    QTest::newRow("sigma") << "eight_schools" << "sigma" << "y" << "sigma";
    QTest::newRow("size") << "eight_schools" << "J" << "theta_trans" << "size";
    QTest::newRow("data size") << "eight_schools" << "J" << "y" << "size";
    QTest::newRow("value") << "eight_schools" << "tau" << "theta" << "value";
    QTest::newRow("index") << "radon" << "county_idx" << "log_radon" << "index";
    QTest::newRow("indexed") << "radon" << "a" << "log_radon" << "mu";
    QTest::newRow("covariate") << "radon" << "floor_measure" << "log_radon" << "mu";
    QTest::newRow("range") << "arK" << "T" << "y_target" << "index";
    QTest::newRow("sliced") << "arK" << "y" << "y_target" << "value";
    QTest::newRow("lags") << "arK" << "K" << "y_lagged" << "value";
    QTest::newRow("observed =") << "arK" << "y_lagged" << "y_target" << "mu";
    QTest::newRow("named") << "gp_pois_regr" << "f" << "k" << "log_rate";
    QTest::newRow("named p") << "wells" << "dist100" << "switched" << "logits";
    QTest::newRow("StudentT") << "diamonds" << "Xc" << "Y" << "mu";
    QTest::newRow("weights") << "mixture" << "w" << "y" << "weights";
    QTest::newRow("component") << "mixture" << "mu" << "y" << "component.mu";
    QTest::newRow("component 2") << "mixture" << "sigma" << "y" << "component.sigma";
    QTest::newRow("Sigma") << "mixture" << "S" << "Y" << "Sigma";
    QTest::newRow("scale_tril") << "mixture" << "L" << "Z" << "scale_tril";
    QTest::newRow("MultiNormal mu") << "mixture" << "m" << "Z" << "mu";
    QTest::newRow("constraint size") << "mixture" << "K" << "L" << "size";
    QTest::newRow("two roles") << "mixture" << "K" << "last" << "index,value";
  }
  void edges() {
    QFETCH(QString, model);
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, roles);
    const auto graph = graph_of(model, false);
    const vm::GraphEdge* e = graph.find_edge(from.toStdString(), to.toStdString());
    QVERIFY(e);
    QCOMPARE(joined(e->roles), roles);
  }

  void no_edge_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::newRow("own declaration") << "eight_schools" << "y" << "y";
    QTest::newRow("through theta") << "eight_schools" << "mu" << "y";
    QTest::newRow("reversed") << "eight_schools" << "y" << "theta";
    QTest::newRow("index of a") << "radon" << "county_idx" << "a";
    QTest::newRow("own assignment") << "arK" << "y_target" << "y_target";
  }
  void no_edge() {
    QFETCH(QString, model);
    QFETCH(QString, from);
    QFETCH(QString, to);
    QVERIFY(!graph_of(model, false).find_edge(from.toStdString(), to.toStdString()));
  }

  void eight_schools_edges() {
    QStringList actual;
    for (const auto& e : graph_of("eight_schools", false).edges) {
      actual << QString::fromStdString(e.from + "->" + e.to + ":") + joined(e.roles);
    }
    QCOMPARE(actual, QStringList({"J->y:size", "J->sigma:size", "J->theta_trans:size",
                                  "theta_trans->theta:value", "tau->theta:value",
                                  "mu->theta:value", "theta->y:mu", "sigma->y:sigma"}));
  }

  void edges_cover_dependencies_once_data() {
    QTest::addColumn<QString>("model");
    for (const auto& name : all_models()) QTest::newRow(qPrintable(name)) << name;
  }
  void edges_cover_dependencies_once() {
    QFETCH(QString, model);
    const auto& checked = *compiled(model).checked;
    const auto graph = graph_of(model, false);
    std::set<std::pair<std::string, std::string>> pairs;
    for (const auto& e : graph.edges) {
      QVERIFY2(pairs.insert({e.from, e.to}).second, (e.from + "->" + e.to).c_str());
      QVERIFY(e.from != e.to);
      QVERIFY((graph.find_node(e.from) || graph.find_function(e.from)) &&
              (graph.find_node(e.to) || graph.find_function(e.to)));
      QVERIFY(!e.roles.empty());
    }
    for (const auto& n : checked.nodes) {
      for (const auto& d : n.dependencies) QVERIFY2(pairs.count({d, n.name}), (d + "->" + n.name).c_str());
    }
  }

  void program_order_data() { edges_cover_dependencies_once_data(); }
  void program_order() {
    QFETCH(QString, model);
    const auto& checked = *compiled(model).checked;
    const auto graph = graph_of(model, true);
    std::vector<std::string> expected;
    for (const auto& s : checked.program.statements) {
      if (s.kind() == vm::StatementKind::function) continue;  // in graph.functions
      if (std::find(expected.begin(), expected.end(), s.name()) == expected.end()) expected.push_back(s.name());
    }
    std::vector<std::string> ids;
    for (const auto& n : graph.nodes) ids.push_back(n.id);
    QCOMPARE(ids, expected);
    // Stable: a second build gives the same graph.
    const auto again = graph_of(model, true);
    QCOMPARE(again.edges.size(), graph.edges.size());
    for (size_t i = 0; i < graph.edges.size(); ++i) {
      QCOMPARE(again.edges[i].from, graph.edges[i].from);
      QCOMPARE(again.edges[i].to, graph.edges[i].to);
    }
  }

  // A user function is drawn once, with an edge to each node and function that calls it
  // ("call") or solves an ODE with it ("dy/dt"); it has no plate and feeds no plate.
  void functions() {
    const char* const text = R"(function sq(x: real): real = x * x
function twice_sq(x: real): real = 2 * sq(x)
data N: int
m[N] ~ Normal(0, 1)
s = twice_sq(m)
t = sq(1.5) + exp(m)
)";
    vm::Diagnostics diagnostics;
    const vm::Source source("f.vmod", text);
    vm::ParseResult parsed = vm::parse(source);
    QVERIFY(parsed.ok());
    const auto checked = vm::check(std::move(parsed.program), source, diagnostics);
    QVERIFY2(!diagnostics.has_errors(), diagnostics.format(source).c_str());
    const auto graph = vm::build_graph(checked);
    QCOMPARE(graph.functions.size(), size_t(2));
    QCOMPARE(graph.functions[0].id, std::string("sq"));
    QCOMPARE(graph.functions[0].signature, std::string("(x: real): real"));
    QCOMPARE(graph.functions[1].body, std::string("2 * sq(x)"));
    QVERIFY(!graph.find_node("sq"));
    QCOMPARE(joined(graph.find_edge("sq", "twice_sq")->roles), QString("call"));
    QCOMPARE(joined(graph.find_edge("twice_sq", "s")->roles), QString("call"));
    QCOMPARE(joined(graph.find_edge("sq", "t")->roles), QString("call"));
    QVERIFY(!graph.find_edge("sq", "s"));                          // through twice_sq only
    QVERIFY(!graph.find_edge("exp", "t"));                         // the language's functions are no nodes
    QCOMPARE(joined(graph.find_node("s")->plates), QString("N"));  // m's plate, not the function's
    QVERIFY(graph.find_node("t")->plates.size() == 1);

    const auto lotka_volterra = graph_of("lotka_volterra", true);
    QCOMPARE(joined(lotka_volterra.find_edge("dz_dt", "z")->roles), QString("dy/dt"));
    // dz_dt's arguments z and theta are its own, not the nodes of those names.
    QVERIFY(!lotka_volterra.find_edge("z", "dz_dt") && !lotka_volterra.find_edge("theta", "dz_dt"));
    QCOMPARE(lotka_volterra.find_function("dz_dt")->signature,
             std::string("(t: real, z: vector, theta: vector): vector"));
  }

  void texts() {
    const auto& source = *compiled("eight_schools").source;
    const auto graph = graph_of("eight_schools", false);
    const vm::GraphNode& y = *graph.find_node("y");
    QCOMPARE(y.distribution, std::string("Normal"));
    QCOMPARE(y.distribution_text, std::string("Normal(theta, sigma)"));
    QCOMPARE(y.arguments.size(), size_t(2));
    QCOMPARE(y.arguments[0].parameter + "=" + y.arguments[0].text, std::string("mu=theta"));
    QCOMPARE(y.arguments[1].parameter + "=" + y.arguments[1].text, std::string("sigma=sigma"));
    QCOMPARE(y.declared_type, std::string("real[J]"));
    QCOMPARE(joined(y.sizes), QString("J"));
    QVERIFY(y.expression.empty());
    QCOMPARE(y.spans.size(), size_t(2));
    QCOMPARE(std::string(source.text(y.spans[0])), std::string("data y: real[J]"));
    QCOMPARE(std::string(source.text(y.spans[1])), std::string("y ~ Normal(theta, sigma)"));
    const vm::GraphNode& theta = *graph.find_node("theta");
    QCOMPARE(theta.expression, std::string("theta_trans * tau + mu"));
    QVERIFY(theta.distribution.empty() && theta.declared_type.empty() && theta.sizes.empty());
    QCOMPARE(graph.find_node("J")->declared_type, std::string("int"));
    QCOMPARE(joined(graph.find_node("theta_trans")->sizes), QString("J"));

    const auto gp = graph_of("gp_pois_regr", false);
    QCOMPARE(gp.find_node("k")->distribution_text, std::string("Poisson(log_rate = f)"));
    QCOMPARE(gp.find_node("k")->arguments[0].parameter, std::string("log_rate"));
    QCOMPARE(gp.find_node("L_cov")->expression,
             std::string("cholesky(gp_exp_quad_cov(x, alpha, rho) + 1e-10 * eye(N))"));

    const auto mixture = graph_of("mixture", false);
    const vm::GraphNode& my = *mixture.find_node("y");
    QCOMPARE(my.distribution, std::string("Mixture"));
    QCOMPARE(my.arguments.size(), size_t(2));
    QCOMPARE(my.arguments[1].parameter + "=" + my.arguments[1].text,
             std::string("component=Normal(mu, sigma)"));
    QCOMPARE(mixture.find_node("L")->declared_type, std::string("cholesky_corr[K]"));
    QCOMPARE(mixture.find_node("Y")->declared_type, std::string("real[N, K]"));
    QCOMPARE(joined(mixture.find_node("S")->sizes), QString("K,K"));
  }

  void shapes() {
    const auto& result = compiled("mixture");
    const auto shaped = graph_of("mixture", true);
    for (const auto& n : shaped.nodes) {
      QVERIFY(n.shape);
      QCOMPARE(*n.shape, result.model->shape(n.id));
    }
    QCOMPARE(*shaped.find_node("L")->shape, variate::Shape({3, 3}));
    QCOMPARE(*shaped.find_node("Y")->shape, variate::Shape({4, 3}));
    QCOMPARE(*shaped.find_node("total")->shape, variate::Shape{});
    for (const auto& n : graph_of("mixture", false).nodes) QVERIFY(!n.shape);
    for (const auto& p : graph_of("mixture", false).plates) QVERIFY(!p.extent);
  }
};

QTEST_APPLESS_MAIN(TestGraph)
#include "tst_graph.moc"
