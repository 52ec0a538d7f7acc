// Every reference model (posteriordb's, in tests/data/reference) parses, checks and
// compiles with its data exactly as written, and its log density agrees with Stan's.

#include <cmath>

#include <QtTest/QtTest>
#include <nlohmann/json.hpp>

#include "engine/io/data_file.h"
#include "engine/model/compile.h"

namespace vm = variate::model;
using json = nlohmann::json;

namespace {

QString reference_folder(const QString& name) {
  return QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/reference/") + name + "/";
}

vm::CompileResult compile_reference(const QString& name, const vm::CompileOptions& options = {}) {
  const std::string folder = reference_folder(name).toStdString();
  const auto data = variate::io::read_data_file(folder + "data.json");
  return vm::compile_model(
      vm::Source(folder + "model.vmod", variate::io::read_text_file(folder + "model.vmod")), &data, options);
}

// Numbers of a nested JSON array in row-major order.
void flatten(const json& node, std::vector<double>& out) {
  if (node.is_array()) {
    for (const auto& element : node) flatten(element, out);
  } else {
    out.push_back(node.get<double>());
  }
}

// Stan's constrained parameters as a value map with the layout's shapes.
variate::ValueMap values_from(const json& params, const variate::ParameterLayout& layout) {
  variate::ValueMap values;
  for (const auto& p : layout.parameters()) {
    std::vector<double> flat;
    flatten(params.at(p.name), flat);
    values[p.name] = at::tensor(flat, at::kDouble).reshape(p.shape);
  }
  return values;
}

}  // namespace

class TestReferenceModels : public QObject {
  Q_OBJECT

 private slots:
  void compiles_data() {
    QTest::addColumn<QString>("name");
    const QDir root(QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/reference"));
    const auto entries = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QVERIFY(entries.size() >= 8);
    for (const auto& entry : entries) QTest::newRow(qPrintable(entry)) << entry;
  }
  void compiles() {
    QFETCH(QString, name);
    const auto result = compile_reference(name);
    QVERIFY2(result.ok(), result.report().c_str());
    QVERIFY(result.model.has_value());
    QVERIFY(result.model->layout().dimension() > 0);
  }

  void matchesStanLogDensityDifferences_data() { compiles_data(); }
  void matchesStanLogDensityDifferences() {
    QFETCH(QString, name);
    const auto result = compile_reference(name);
    QVERIFY2(result.ok(), result.report().c_str());
    const auto& model = *result.model;
    const json stan = json::parse(variate::io::read_text_file(
        reference_folder(name).toStdString() + "stan_logdensity.json"));
    const auto target = model.target();
    std::vector<double> ours, ours_jacobian, theirs, theirs_jacobian;
    for (const auto& point : stan["points"]) {
      const auto values = values_from(point["params"], model.layout());
      ours.push_back(model.log_joint()(values).item<double>());
      const at::Tensor theta = model.layout().unconstrain(values);
      ours_jacobian.push_back(target.log_density(theta).item<double>());
      theirs.push_back(point["stan_lp"].get<double>());
      theirs_jacobian.push_back(point["stan_lp_jacobian"].get<double>());
    }
    // Rounding alone parts the two; where the model solves an ODE, each solver's error at
    // the model's tolerances too, which the file states.
    const double tolerance = stan.value("tolerance", 1e-6);
    for (size_t i = 1; i < ours.size(); ++i) {
      const double a = ours[i] - ours[0];
      const double b = theirs[i] - theirs[0];
      QVERIFY2(std::abs(a - b) <= tolerance * std::max(1.0, std::abs(b)),
               qPrintable(QString("point %1: difference %2, Stan %3").arg(i).arg(a, 0, 'g', 12).arg(b, 0, 'g', 12)));
      const double aj = ours_jacobian[i] - ours_jacobian[0];
      const double bj = theirs_jacobian[i] - theirs_jacobian[0];
      QVERIFY2(
          std::abs(aj - bj) <= tolerance * std::max(1.0, std::abs(bj)),
          qPrintable(
              QString("point %1 (Jacobian): difference %2, Stan %3").arg(i).arg(aj, 0, 'g', 12).arg(bj, 0, 'g', 12)));
    }
  }

  void batchMatchesSinglePoints_data() { compiles_data(); }
  void batchMatchesSinglePoints() {
    QFETCH(QString, name);
    const auto result = compile_reference(name);
    QVERIFY2(result.ok(), result.report().c_str());
    const auto target = result.model->target();
    at::manual_seed(11);
    const at::Tensor thetas = at::rand({4, target.dimension()}, at::kDouble) * 2 - 1;
    const auto [lps, gradients] = target.log_density_and_gradient(thetas);
    for (int64_t b = 0; b < 4; ++b) {
      const auto [lp, gradient] = target.log_density_and_gradient(thetas[b]);
      QVERIFY2(std::abs(lp.item<double>() - lps[b].item<double>()) <= 1e-9 * std::max(1.0, std::abs(lp.item<double>())),
               qPrintable(QString("point %1: %2 vs batched %3").arg(b).arg(lp.item<double>()).arg(lps[b].item<double>())));
      QVERIFY(at::allclose(gradient, gradients[b], 1e-8, 1e-10));
    }
  }

  // `--dtype float32` compiles every model, and its log density and gradient stay within
  // float32 rounding of float64's, one point at a time and batched.
  void float32MatchesFloat64_data() { compiles_data(); }
  void float32MatchesFloat64() {
    QFETCH(QString, name);
    const auto wide = compile_reference(name);
    QVERIFY2(wide.ok(), wide.report().c_str());
    vm::CompileOptions options;
    options.dtype = at::kFloat;
    const auto narrow = compile_reference(name, options);
    QVERIFY2(narrow.ok(), narrow.report().c_str());
    const auto target64 = wide.model->target();
    const auto target32 = narrow.model->target();
    QCOMPARE(target32.dimension(), target64.dimension());
    at::manual_seed(12);
    const at::Tensor thetas = at::rand({3, target64.dimension()}, at::kDouble) - 0.5;
    for (const at::Tensor& theta : {thetas[0], thetas}) {
      const auto [lp64, g64] = target64.log_density_and_gradient(theta);
      const auto [lp32, g32] = target32.log_density_and_gradient(theta);
      QCOMPARE(lp32.scalar_type(), at::kDouble);
      QCOMPARE(lp32.sizes(), lp64.sizes());
      const double lp_error = ((lp32 - lp64).abs() / lp64.abs().clamp_min(1)).max().item<double>();
      QVERIFY2(lp_error <= 1e-4, qPrintable(QString("log density off by %1 (relative)").arg(lp_error)));
      const double g_error = ((g32.to(at::kDouble) - g64).abs().max() / g64.abs().max().clamp_min(1)).item<double>();
      QVERIFY2(g_error <= 1e-3, qPrintable(QString("gradient off by %1 (relative to its largest)").arg(g_error)));
    }
  }
};

QTEST_APPLESS_MAIN(TestReferenceModels)
#include "tst_reference_models.moc"
