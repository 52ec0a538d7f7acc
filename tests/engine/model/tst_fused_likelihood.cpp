// The compiler recognises GLM-shaped likelihoods, evaluates them with the fused kernels
// (and says so), and the result equals the autograd path to 1e-10 relative in float64 —
// for written-out models, empty and single-row data, batches of points, and every
// reference model the kernels apply to. float32 compilation keeps the density close.

#include <cmath>

#include <QtTest/QtTest>

#include "engine/core/checks.h"
#include "engine/io/data_file.h"
#include "engine/model/compile.h"

namespace vm = variate::model;

namespace {

vm::CompiledModel compile(const std::string& text, const variate::Data& data, vm::CompileOptions options = {}) {
  auto result = vm::compile_model(vm::Source("test.vmod", text), &data, options);
  if (!result.ok() || !result.model) throw std::runtime_error(result.report());
  return *result.model;
}

// N rows of covariates and outcomes for every family.
variate::Data glm_data(int64_t N, int64_t K, uint64_t seed) {
  at::manual_seed(static_cast<int64_t>(seed));
  const at::Tensor X = at::randn({N, K}, at::kDouble);
  const at::Tensor trials = at::randint(1, 10, {N}, at::kLong);
  variate::Data data;
  data.set("N", N).set("K", K).set("X", X);
  data.set("x1", at::randn({N}, at::kDouble)).set("x2", at::randn({N}, at::kDouble));
  data.set("y_real", at::randn({N}, at::kDouble) * 3);
  data.set("y_binary", at::randint(0, 2, {N}, at::kLong));
  data.set("y_count", at::randint(0, 7, {N}, at::kLong));
  data.set("trials", trials).set("n", int64_t{9});
  data.set("y_successes", at::floor(at::rand({N}, at::kDouble) * (trials + 1)).to(at::kLong));
  data.set("y_successes9", at::randint(0, 10, {N}, at::kLong));
  return data;
}

const char* kDeclarations = R"(
data N: int
data K: int
data X: real[N, K]
data x1: real[N]
data x2: real[N]
data y_real: real[N]
data y_binary: int[N]
data y_count: int[N]
data trials: int[N]
data n: int
data y_successes: int[N]
data y_successes9: int[N]
a ~ Normal(0, 1)
b[K] ~ Normal(0, 1)
c[2] ~ Normal(0, 1)
sigma ~ HalfNormal(2)
)";

// Log density and gradient of two targets at the same points agree to `tolerance`.
QString compare_targets(const variate::UnconstrainedTarget& a, const variate::UnconstrainedTarget& b,
                        const at::Tensor& theta, double tolerance) {
  const auto [lp_a, g_a] = a.log_density_and_gradient(theta);
  const auto [lp_b, g_b] = b.log_density_and_gradient(theta);
  const double lp_error = (lp_a - lp_b).abs().max().item<double>() / lp_b.abs().max().item<double>();
  const double g_error = (g_a - g_b).abs().max().item<double>() / std::max(g_b.abs().max().item<double>(), 1e-300);
  if (lp_error <= tolerance && g_error <= tolerance) return {};
  return QString("log density relative error %1, gradient %2").arg(lp_error).arg(g_error);
}

QString reference_folder(const QString& name) {
  return QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/reference/") + name + "/";
}

}  // namespace

class TestFusedLikelihood : public QObject {
  Q_OBJECT

 private slots:
  void recognises_data() {
    QTest::addColumn<QString>("statement");
    QTest::addColumn<QString>("family");  // empty: not fused
    QTest::addColumn<int>("columns");
    QTest::addColumn<bool>("intercept");
    QTest::newRow("normal X @ b") << "y_real ~ Normal(X @ b, sigma)" << "Normal" << 4 << false;
    QTest::newRow("normal a + X @ b") << "y_real ~ Normal(a + X @ b, sigma)" << "Normal" << 4 << true;
    QTest::newRow("normal columns") << "y_real ~ Normal(c[1] * x1 + x2 * c[2] + a, sigma)" << "Normal" << 2 << true;
    QTest::newRow("normal sliced X") << "y_real ~ Normal(a + X[:, 2:K] @ b[2:K] + c[1] * x1, 1.5)" << "Normal" << 4 << true;
    QTest::newRow("bernoulli") << "y_binary ~ Bernoulli(logits = a + X @ b)" << "Bernoulli(logits)" << 4 << true;
    QTest::newRow("poisson") << "y_count ~ Poisson(log_rate = X @ b + c[1])" << "Poisson(log_rate)" << 4 << true;
    QTest::newRow("binomial trials") << "y_successes ~ Binomial(trials, logits = a + X @ b)" << "Binomial(logits)" << 4 << true;
    QTest::newRow("binomial scalar n") << "y_successes9 ~ Binomial(n, logits = X @ b)" << "Binomial(logits)" << 4 << false;
    QTest::newRow("no data in eta") << "y_real ~ Normal(a, sigma)" << "" << 0 << false;
    QTest::newRow("vector sigma") << "y_real ~ Normal(X @ b, x1 * x1 + sigma)" << "" << 0 << false;
    QTest::newRow("nonlinear predictor") << "y_count ~ Poisson(log_rate = exp(X @ b))" << "" << 0 << false;
    QTest::newRow("probability parameter") << "y_binary ~ Bernoulli(inv_logit(X @ b))" << "" << 0 << false;
    QTest::newRow("data offset") << "y_real ~ Normal(x1 + X @ b, sigma)" << "" << 0 << false;
    QTest::newRow("coefficient times two columns") << "y_real ~ Normal(X @ b + c[1] * x1 * x2, sigma)" << "" << 0 << false;
  }
  void recognises() {
    QFETCH(QString, statement);
    QFETCH(QString, family);
    QFETCH(int, columns);
    QFETCH(bool, intercept);
    const auto data = glm_data(40, 4, 1);
    const auto result = vm::compile_model(
        vm::Source("test.vmod", std::string(kDeclarations) + statement.toStdString() + "\n"), &data);
    QVERIFY2(result.ok() && result.model, result.report().c_str());
    const vm::CompiledModel& model = *result.model;
    const auto fused = model.fused_likelihoods();
    if (family.isEmpty()) {
      QVERIFY(fused.empty());
      return;
    }
    QCOMPARE(fused.size(), size_t{1});
    QCOMPARE(QString::fromStdString(fused[0].family), family);
    QCOMPARE(fused[0].rows, int64_t{40});
    QCOMPARE(fused[0].columns, int64_t{columns});
    QCOMPARE(fused[0].intercept, intercept);

    // The sampler's path takes the kernel, and agrees with autograd everywhere.
    vm::CompileOptions unfused;
    unfused.fuse_likelihoods = false;
    const vm::CompiledModel reference = compile(std::string(kDeclarations) + statement.toStdString() + "\n", data, unfused);
    QVERIFY(reference.fused_likelihoods().empty());
    const auto target = model.target();
    at::manual_seed(4);
    const at::Tensor theta = at::randn({target.dimension()}, at::kDouble);
    const long before = model.fused_evaluations();
    const QString one = compare_targets(target, reference.target(), theta, 1e-10);
    QVERIFY2(one.isEmpty(), qPrintable(one));
    QCOMPARE(model.fused_evaluations(), before + 1);
    const at::Tensor thetas = at::randn({5, target.dimension()}, at::kDouble);
    const QString batch = compare_targets(target, reference.target(), thetas, 1e-10);
    QVERIFY2(batch.isEmpty(), qPrintable(batch));
    QCOMPARE(model.fused_evaluations(), before + 2);
    QCOMPARE(reference.fused_evaluations(), 0L);
  }

  // With validation on (as `variate logp` evaluates), the general path runs and checks.
  void validationTakesTheGeneralPath() {
    const auto data = glm_data(10, 4, 2);
    const auto model = compile(std::string(kDeclarations) + "y_real ~ Normal(a + X @ b, sigma)\n", data);
    variate::ValueMap values{{"a", at::zeros({}, at::kDouble)}, {"b", at::zeros({4}, at::kDouble)},
                             {"c", at::zeros({2}, at::kDouble)}, {"sigma", at::full({}, -1.0, at::kDouble)}};
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, model.log_joint()(values));
    QCOMPARE(model.fused_evaluations(), 0L);
  }

  // Empty and single-row data: the kernel's edge cases inside a model.
  void emptyAndSingleRow_data() {
    QTest::addColumn<int>("rows");
    QTest::newRow("N=0") << 0;
    QTest::newRow("N=1") << 1;
  }
  void emptyAndSingleRow() {
    QFETCH(int, rows);
    const auto data = glm_data(rows, 4, 3);
    for (const char* statement : {"y_binary ~ Bernoulli(logits = a + X @ b)",
                                  "y_successes ~ Binomial(trials, logits = c[1] * x1 + X @ b)",
                                  "y_count ~ Poisson(log_rate = X @ b)", "y_real ~ Normal(a + X @ b, sigma)"}) {
      const std::string text = std::string(kDeclarations) + statement + "\n";
      const auto model = compile(text, data);
      QCOMPARE(model.fused_likelihoods().size(), size_t{1});
      vm::CompileOptions unfused;
      unfused.fuse_likelihoods = false;
      const auto reference = compile(text, data, unfused);
      const at::Tensor thetas = at::randn({3, model.target().dimension()}, at::kDouble);
      const QString error = compare_targets(model.target(), reference.target(), thetas, 1e-10);
      QVERIFY2(error.isEmpty(), qPrintable(QString(statement) + ": " + error));
      QCOMPARE(model.fused_evaluations(), 1L);
    }
  }

  // Every reference model whose likelihood has a GLM shape is fused, and agrees with
  // the autograd path to 1e-10 at random points, one at a time and batched.
  void referenceModels_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("fused");  // the fused variable, or empty
    QTest::newRow("arK") << "arK-arK" << "y_target";
    QTest::newRow("diamonds") << "diamonds-diamonds" << "Y";
    QTest::newRow("earnings") << "earnings-logearn_interaction" << "log_earn";
    QTest::newRow("earn_height") << "earnings-earn_height" << "earn";
    QTest::newRow("eight schools") << "eight_schools-eight_schools_noncentered" << "";
    QTest::newRow("gp_pois_regr") << "gp_pois_regr-gp_pois_regr" << "";
    QTest::newRow("kidiq") << "kidiq-kidscore_momhsiq" << "kid_score";
    QTest::newRow("kidiq interaction") << "kidiq-kidscore_interaction" << "kid_score";
    QTest::newRow("kilpisjarvi") << "kilpisjarvi_mod-kilpisjarvi" << "y";
    QTest::newRow("mesquite") << "mesquite-logmesquite_logvas" << "log_weight";
    QTest::newRow("mesquite raw") << "mesquite-mesquite" << "weight";
    QTest::newRow("sblrc") << "sblrc-blr" << "y";
  }
  void referenceModels() {
    QFETCH(QString, name);
    QFETCH(QString, fused);
    const std::string folder = reference_folder(name).toStdString();
    const auto data = variate::io::read_data_file(folder + "data.json");
    const std::string text = variate::io::read_text_file(folder + "model.vmod");
    const auto model = compile(text, data);
    vm::CompileOptions unfused;
    unfused.fuse_likelihoods = false;
    const auto reference = compile(text, data, unfused);
    const auto list = model.fused_likelihoods();
    QCOMPARE(list.size(), size_t{fused.isEmpty() ? 0u : 1u});
    if (!fused.isEmpty()) QCOMPARE(QString::fromStdString(list[0].name), fused);
    at::manual_seed(8);
    const int64_t d = model.target().dimension();
    for (int i = 0; i < 3; ++i) {
      const QString error = compare_targets(model.target(), reference.target(),
                                            at::rand({d}, at::kDouble) * 2 - 1, 1e-10);
      QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    const QString batch = compare_targets(model.target(), reference.target(), at::rand({4, d}, at::kDouble) * 2 - 1, 1e-10);
    QVERIFY2(batch.isEmpty(), qPrintable(batch));
    QCOMPARE(model.fused_evaluations(), fused.isEmpty() ? 0L : 4L);
  }

  // The design matrix multiplying a vector is stored column-major at binding and used
  // by the kernel without a copy.
  void bindsMatricesColumnMajor() {
    const auto data = glm_data(30, 4, 5);
    const auto model = compile(std::string(kDeclarations) + "y_real ~ Normal(X @ b, sigma)\n", data);
    const at::Tensor& X = model.data_values().at("X").tensor;
    QCOMPARE(X.sizes(), at::IntArrayRef({30, 4}));
    QCOMPARE(X.stride(0), int64_t{1});
    QVERIFY(at::equal(X, data["X"]));
  }

  // float32: data and what is computed from it in float32, the total in float64; the
  // density and gradient stay within float rounding of float64's.
  void float32StaysClose() {
    const auto data = glm_data(2000, 4, 6);
    vm::CompileOptions single;
    single.dtype = at::kFloat;
    for (const bool fuse : {true, false}) {
      single.fuse_likelihoods = fuse;
      const std::string text = std::string(kDeclarations) + "y_binary ~ Bernoulli(logits = a + X @ b)\n"
                                                             "y_real ~ Normal(c[1] * x1 + c[2] * x2 + exp(a), sigma)\n";
      const auto model32 = compile(text, data, single);
      const auto model64 = compile(text, data);
      QCOMPARE(model32.data_values().at("X").tensor.scalar_type(), at::kFloat);
      QCOMPARE(model32.fused_likelihoods().size(), size_t{fuse ? 2u : 0u});
      const at::Tensor thetas = at::randn({3, model64.target().dimension()}, at::kDouble) * 0.5;
      const auto [lp32, g32] = model32.target().log_density_and_gradient(thetas);
      QCOMPARE(lp32.scalar_type(), at::kDouble);
      QCOMPARE(g32.scalar_type(), at::kDouble);
      const QString error = compare_targets(model32.target(), model64.target(), thetas, 1e-5);
      QVERIFY2(error.isEmpty(), qPrintable(error));
    }
  }

  void rejectsOtherDtypes() {
    const auto data = glm_data(5, 4, 7);
    vm::CompileOptions half;
    half.dtype = at::kHalf;
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError,
                             vm::compile_model(vm::Source("t.vmod", std::string(kDeclarations)), &data, half));
  }
};

QTEST_APPLESS_MAIN(TestFusedLikelihood)
#include "tst_fused_likelihood.moc"
