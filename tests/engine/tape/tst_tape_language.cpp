// The language additions on the tape (vector literals, comparisons, `?:`, log_sum_exp,
// log_sum_exp_rows, softmax, cumulative_sum, transpose, recurrences, `target +=`,
// truncations, bounds computed from parameters): each model compiles to a tape, and its
// log density and gradient equal LibTorch's to 1e-12 relative at 20 standard-normal unconstrained points, with and
// without the Jacobian, as do the values each draw records (the tape's forward sweep); and
// LibTorch's batch of the 20 points equals its points one by one.

#include <cmath>

#include <QtTest/QtTest>

#include "engine/io/data_file.h"
#include "engine/model/compile.h"
#include "engine/tape/compiler/select_target.h"
#include "tests/support/draw_columns_parity.h"

namespace vm = variate::model;

namespace {

const char* kData =
    R"({"N": 3, "x": [1, 2, 3], "X": [[1, 2, 3], [4, 5, 6], [7, 8, 9]], "y": [0.5, 1, 3], "u": [0.2, 0.5, 0.7],)"
    R"( "k": [0, 1, 1]})";

vm::CompileResult compile_text(const std::string& text) {
  const variate::Data bound = variate::io::parse_json_data(kData, "d.json");
  const std::string declarations = "data N: int\ndata x: real[N]\ndata X: real[N, N]\ndata y: real[N]\n"
                                   "data u: real[N]\ndata k: int[N]\n";
  return vm::compile_model(vm::Source("m.vmod", declarations + text), &bound);
}

}  // namespace

class TestTapeLanguage : public QObject {
  Q_OBJECT

 private slots:
  void agreesWithTorch_data() {
    QTest::addColumn<QString>("model");
    const QString v = "v[3] ~ Normal(0, 2)\n";
    QTest::newRow("vector of scalars") << "a ~ Normal(0, 1)\nb ~ Normal(0, 1)\nw = [a, b, 1 - a]\n"
                                          "target += dot(w, x) * b";
    QTest::newRow("matrix of rows") << v + "M = [v, x, 2 * v]\ntarget += sum(M @ v)";
    QTest::newRow("log_sum_exp") << v + "target += log_sum_exp(v * 10) + log_sum_exp([v, x])";
    QTest::newRow("log_sum_exp of -inf") << v + "target += log_sum_exp([log(0 * x[1]), v[2]])";
    QTest::newRow("log_sum_exp_rows") << v + "M = [v, 2 * v, x]\ntarget += dot(log_sum_exp_rows(M), x) + "
                                             "sum(log_sum_exp_rows(transpose(M)))";
    QTest::newRow("softmax") << v + "target += dot(softmax(v), x) + softmax(v * 100)[2]";
    QTest::newRow("cumulative_sum") << v + "target += dot(cumulative_sum(v), y)";
    QTest::newRow("comparisons") << v + "w = v < x - 1 ? square(v) : -v\n"
                                        "target += sum(w) + sum((v > 0 && v <= 1) || !(v != v) ? v : 2 * v)";
    QTest::newRow("conditional of a scalar") << v + "a ~ Normal(0, 1)\ntarget += sum(x >= 2 ? a : v) + "
                                                    "(a == a ? 1 : 0)";
    QTest::newRow("scalar recurrence") << "a ~ Normal(0, 1)\nb ~ Normal(0, 1)\ns[1] = a\ns[2] = s[1] * b\n"
                                          "s[t] = s[t - 1] * 0.5 + s[t - 2] + y[t] for t in 3:N\n"
                                          "y ~ Normal(s, 1)";
    QTest::newRow("recurrence over a parameter") << v + "s[1] = v[1]\ns[t] = s[t - 1] * v[t] + v[t - 1] for t in 2:N\n"
                                                        "target += -sum(square(s))";
    QTest::newRow("recurrence of rows") << v + "M = [v, x, v]\nr[1] = v\n"
                                               "r[t] = log_sum_exp_rows(transpose(M) + r[t - 1]) - r[t - 1, 2] + "
                                               "r[t - 1][1] for t in 2:N\n"
                                               "target += log_sum_exp(r[N]) + sum(r)";
    QTest::newRow("scalars of parameters") << "a ~ Normal(0, 1)\nb ~ Normal(a, exp(a))\nc ~ Gamma(exp(b), 2)\n"
                                              "y ~ Normal(b + c, 1)";
    QTest::newRow("target of data") << "a ~ Normal(0, 1)\ntarget += sum(x)";
    QTest::newRow("recurrence of data only") << "s[1] = x[1]\ns[t] = s[t - 1] * 2 + y[t] for t in 2:N\n"
                                                "a ~ Normal(0, 1)\ntarget += dot(s, x) * a";
    QTest::newRow("recurrence reading rows by t") << v + "M = [v, 2 * v, x]\nr[1] = exp(M[1])\n"
                                                         "r[t] = softmax(r[t - 1] + M[t]) * X[t, t] for t in 2:N\n"
                                                         "target += sum(log(r))";
    QTest::newRow("truncated latents") << "a ~ Normal(0.5, 2) T[-1, 2]\nb ~ Exponential(2) T[, 3]\n"
                                          "c ~ Logistic(0, 1.5) T[0.5, ]\nd ~ Cauchy(1, 2) T[-1, 1]";
    const QString mu_s = "mu ~ Normal(1, 1)\ns ~ Exponential(1)\n";
    QTest::newRow("truncated Normal") << mu_s + "y ~ Normal(mu, s) T[0, 4]";
    QTest::newRow("truncated Cauchy") << mu_s + "y ~ Cauchy(mu, s) T[, 3.5]";
    QTest::newRow("truncated Logistic") << mu_s + "y ~ Logistic(mu, s) T[0.1, ]";
    QTest::newRow("truncated Exponential") << mu_s + "y ~ Exponential(s) T[0.2, 3]";
    QTest::newRow("truncated at parameters") << mu_s + "l ~ Normal(0, 1)\ny ~ Normal(mu, s) T[-exp(l), 3 + exp(l)]\n"
                                                       "x ~ Exponential(s) T[0.5 - exp(l), ]";
    // Supports whose bounds are computed from other parameters, transformed at each point.
    QTest::newRow("Uniform at parameters") << "a ~ Uniform(0, 1)\nb ~ Uniform(0, 1 - a)\n"
                                              "c[N] ~ Uniform(-exp(b), x + a)\nd ~ Uniform(lo = c[2], hi = 4)";
    QTest::newRow("latent truncated at parameters") << "l ~ Normal(0, 1)\nz ~ Normal(0, 1) T[l, ]\n"
                                                       "w ~ Exponential(2) T[, exp(l)]\n"
                                                       "q[N] ~ Normal(x, 1) T[-exp(l), x + exp(z)]\nr ~ Logistic(0, 1) T[, l]";
    // Densities in expressions (Normal(mu, s).log_prob(x)), each family the tape has.
    QTest::newRow("log_prob of location-scale families")
        << mu_s +
               "target += sum(Normal(mu, s).log_prob(y)) + sum(StudentT(3 + s, mu, s).log_prob(x)) + "
               "Cauchy(mu, s).log_prob(mu + 1) + sum(Laplace(mu, s).log_prob(y)) + sum(Logistic(mu, s).log_prob(x))";
    QTest::newRow("log_prob of positive families")
        << mu_s +
               "t ~ Gamma(2, 2)\ntarget += sum(Gamma(s, t).log_prob(y)) + sum(InvGamma(s, t).log_prob(y)) + "
               "sum(LogNormal(mu, t).log_prob(y)) + sum(Weibull(s, t).log_prob(y)) + sum(Exponential(s).log_prob(y)) + "
               "HalfNormal(s).log_prob(t) + HalfCauchy(s).log_prob(t) + HalfStudentT(3, s).log_prob(t)";
    QTest::newRow("log_prob of Beta, Uniform and Poisson")
        << "p ~ Beta(2, 2)\nq ~ Uniform(0, 1)\nl ~ Normal(0, 1)\n"
           "target += sum(Beta(p + 1, 2).log_prob(u)) + Uniform(0, 1 + p).log_prob(q) + "
           "sum(Poisson(exp(l) * x).log_prob(k)) + sum(Poisson(log_rate = l + x).log_prob(k))";
    QTest::newRow("log_prob at a parameter")
        << v + "target += sum(Normal(x, 2).log_prob(v)) + sum(Normal(0, 1).log_prob(v * 2))";
    QTest::newRow("log_prob broadcast to a matrix") << v + "target += sum(Normal(v, 1).log_prob(X))";
    QTest::newRow("log_prob in a recurrence")
        << v + "g[1] = Normal(v, 1).log_prob(y[1])\n"
               "g[t] = log_sum_exp(g[t - 1]) + Normal(v, 1).log_prob(y[t]) for t in 2:N\n"
               "target += log_sum_exp(g[N])";
    QTest::newRow("log_cdf and log_ccdf")
        << mu_s +
               "target += sum(Normal(mu, s).log_cdf(y)) + sum(Logistic(mu, s).log_ccdf(x)) + "
               "Cauchy(mu, s).log_cdf(mu + 1) + sum(Exponential(s).log_ccdf(y)) + Normal(0, 1).log_ccdf(mu)";
    QTest::newRow("a derived log_prob") << mu_s + "ll = Normal(mu, s).log_prob(y)\ny ~ Normal(mu, s)";
    QTest::newRow("declared bounds") << "a ~ Normal(0, 1)\nb: real<lower=a, upper=a + 2>\n"
                                        "c: real<lower=0, upper=exp(a) * x>[N]\nd: real<lower=b>\ne: real<upper=-b>[2]\n"
                                        "f: real<lower=0, upper=1>\ng: real<lower=c>[N]\ny ~ Normal(b + d + sum(c), 1)";
  }
  void agreesWithTorch() {
    QFETCH(QString, model);
    const auto compiled = compile_text(model.toStdString());
    QVERIFY2(compiled.ok(), compiled.report().c_str());
    const auto selected = variate::tape::select_target(*compiled.model, variate::tape::Backend::automatic);
    QVERIFY2(selected.fallback_reason.empty(), selected.fallback_reason.c_str());
    QCOMPARE(QString::fromStdString(selected.target.backend()), QStringLiteral("tape"));
    const variate::UnconstrainedTarget torch = compiled.model->target();
    at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(20261202);
    const at::Tensor thetas = at::randn({20, torch.dimension()}, generator, at::kDouble);
    // LibTorch's batch of all the points (batched chains) equals its points one by one.
    const auto [lps_batched, gs_batched] = torch.log_density_and_gradient(thetas);
    for (int point = 0; point < 20; ++point) {
      const at::Tensor theta = thetas[point];
      const auto [lp_one, g_one] = torch.log_density_and_gradient(theta);
      const double batched = lps_batched[point].item<double>();
      QVERIFY2(std::abs(batched - lp_one.item<double>()) <= 1e-9 * std::max(1.0, std::abs(batched)),
               qPrintable(QString("point %1: %2 alone, %3 in a batch").arg(point).arg(lp_one.item<double>()).arg(batched)));
      QVERIFY(at::allclose(g_one, gs_batched[point], 1e-8, 1e-10));
      for (const bool jacobian : {true, false}) {
        const auto [lp_torch, g_torch] = torch.log_density_and_gradient(theta, jacobian);
        const auto [lp_tape, g_tape] = selected.target.log_density_and_gradient(theta, jacobian);
        const double want = lp_torch.item<double>();
        const double got = lp_tape.item<double>();
        QVERIFY2(std::abs(got - want) <= 1e-12 * std::max(1.0, std::abs(want)),
                 qPrintable(QString("lp %1 vs %2").arg(got, 0, 'g', 17).arg(want, 0, 'g', 17)));
        const double scale = std::max(1.0, g_torch.abs().max().item<double>());
        const double error = (g_tape - g_torch).abs().max().item<double>();
        QVERIFY2(error <= 1e-12 * scale, qPrintable(QString("gradient differs by %1 (scale %2)").arg(error).arg(scale)));
      }
    }
    std::vector<at::Tensor> points;
    for (int point = 0; point < 20; ++point) points.push_back(thetas[point]);
    const std::string columns = variate::testing::draw_columns_difference(*compiled.model, points, 1e-12);
    QVERIFY2(columns.empty(), columns.c_str());
  }

  // A model whose support at the unconstrained zero vector is empty (b's bounds meet at
  // a = 0) still records its draws: the columns' shapes come from the model, not from an
  // evaluation there, on LibTorch as on the tape.
  void drawColumnsNeedNoValidZero() {
    const auto compiled = compile_text("a ~ Normal(0, 1)\nb ~ Uniform(0, a)\ny ~ Normal(a + b, 1)");
    QVERIFY2(compiled.ok(), compiled.report().c_str());
    const variate::DrawColumns torch = compiled.model->draw_columns();
    QCOMPARE(torch.names(variate::NameStyle::StanCsv), (std::vector<std::string>{"a", "b"}));
    const std::string columns =
        variate::testing::draw_columns_difference(*compiled.model, {at::tensor({0.7, -0.3}, at::kDouble)}, 1e-12);
    QVERIFY2(columns.empty(), columns.c_str());
  }

  // An argument computed from the parameters outside its domain (where the density's
  // formula might still be finite: Beta's lgamma of a negative shape) makes the point's
  // density -inf on both backends, and each counts the rejection.
  void argumentsOutsideTheirDomainAreRejected_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<double>("invalid");  // b there
    QTest::addColumn<double>("valid");
    const QString b = "b ~ Normal(0, 1)\n";
    QTest::newRow("Beta's shape") << b + "u ~ Beta(b, 2)" << -0.5 << 0.5;
    QTest::newRow("Normal's scale") << b + "y ~ Normal(0, b)" << -0.5 << 0.5;
    QTest::newRow("Gamma's rate") << b + "y ~ Gamma(2, b * b - 0.25)" << 0.0 << 1.0;
    QTest::newRow("Poisson's rate") << b + "x ~ Poisson(b)" << -0.5 << 0.5;
    QTest::newRow("Bernoulli's probability") << b + "k ~ Bernoulli(b)" << 1.5 << 0.5;
    QTest::newRow("Uniform's bounds") << b + "y ~ Uniform(b, 5)" << 6.0 << 0.0;
    QTest::newRow("a GLM's scale") << b + "y ~ Normal(2 * x + 1, b)" << -0.5 << 0.5;
    QTest::newRow("Normal's location, NaN") << b + "y ~ Normal(log(b), 1)" << -0.5 << 0.5;
    QTest::newRow("StudentT's location, infinite") << b + "y ~ StudentT(3, exp(1000 * b), 1)" << 1.0 << -1.0;
    QTest::newRow("a Mixture component's scale") << b + "y ~ Mixture([0.3, 0.7], Normal([0, 1], b))" << -0.5 << 0.5;
  }
  void argumentsOutsideTheirDomainAreRejected() {
    QFETCH(QString, model);
    QFETCH(double, invalid);
    QFETCH(double, valid);
    const auto compiled = compile_text(model.toStdString());
    QVERIFY2(compiled.ok(), compiled.report().c_str());
    const auto selected = variate::tape::select_target(*compiled.model, variate::tape::Backend::automatic);
    QVERIFY2(selected.fallback_reason.empty(), selected.fallback_reason.c_str());
    for (const variate::UnconstrainedTarget& target : {compiled.model->target(), selected.target}) {
      const QString backend = QString::fromStdString(target.backend());
      const auto at = [&](double b) {
        return target.log_density_and_gradient(at::full({1}, b, at::kDouble)).first.item<double>();
      };
      QCOMPARE(target.argument_rejections().count, int64_t{0});
      QVERIFY2(std::isfinite(at(valid)), qPrintable(backend));
      QCOMPARE(target.argument_rejections().count, int64_t{0});
      QVERIFY2(at(invalid) == -INFINITY, qPrintable(backend + ": " + QString::number(at(invalid))));
      const variate::ArgumentRejections rejections = target.argument_rejections();
      QVERIFY2(rejections.count >= 1, qPrintable(backend));
      QCOMPARE(rejections.first, std::vector<double>{invalid});
    }
  }

  // Bounds computed from parameters that cross at a point reject it on both backends.
  void boundsOutOfOrderAreRejected() {
    const auto compiled = compile_text("b ~ Normal(0, 1)\nc: real<lower=b, upper=1>\nd ~ Uniform(c, 2 * b)");
    QVERIFY2(compiled.ok(), compiled.report().c_str());
    const auto selected = variate::tape::select_target(*compiled.model, variate::tape::Backend::automatic);
    QVERIFY2(selected.fallback_reason.empty(), selected.fallback_reason.c_str());
    for (const variate::UnconstrainedTarget& target : {compiled.model->target(), selected.target}) {
      const QString backend = QString::fromStdString(target.backend());
      const auto at = [&](double b) {
        return target.log_density_and_gradient(at::tensor({b, 0.0, 0.0}, at::kDouble)).first.item<double>();
      };
      QVERIFY2(std::isfinite(at(0.9)), qPrintable(backend));  // c in (0.9, 1) < d's upper 1.8
      QCOMPARE(target.argument_rejections().count, int64_t{0});
      QVERIFY2(at(1.5) == -INFINITY, qPrintable(backend));  // c's lower above its upper
      QVERIFY2(at(0.2) == -INFINITY, qPrintable(backend));  // d's upper 0.4 below c
      QCOMPARE(target.argument_rejections().count, int64_t{2});
    }
  }
};

QTEST_APPLESS_MAIN(TestTapeLanguage)
#include "tst_tape_language.moc"
