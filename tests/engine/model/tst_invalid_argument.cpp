// A model whose density is nowhere finite because an argument of a distribution is outside
// its domain: find_invalid_argument evaluates it once with validation on and names the
// distribution, the argument (by the language's name), the value, its index counted from
// 1, and the call's line and column. One row per family's constrained argument.
//
// Each model scales a data value by a positive parameter (`a ~ Exponential(1)`, 1 at the
// unconstrained zero point), so the argument depends on a parameter: the compiler checks
// only arguments of data, and these are left for the sampler's initialization.

#include <cmath>

#include <QtTest/QtTest>

#include "engine/io/data_file.h"
#include "engine/model/compile.h"
#include "engine/model/invalid_argument.h"

namespace vm = variate::model;

namespace {

vm::CompileResult compile_text(const std::string& text, const std::string& data) {
  const variate::Data bound = variate::io::parse_json_data(data, "d.json");
  return vm::compile_model(vm::Source("m.vmod", text), &bound);
}

}  // namespace

class TestInvalidArgument : public QObject {
  Q_OBJECT

 private slots:
  void namesTheArgumentValueAndIndex_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("data");
    QTest::addColumn<QString>("expected");
    // Line 3 is the call the report points at; the column is where its name starts.
    const QString head = "data c: real[2]\ndata y: real[2]\na ~ Exponential(1)\n";
    const QString real2 = R"("c": [1, -1], "y": [0.5, 0.7])";
    const auto row = [&](const char* name, const QString& call, const QString& data, const QString& message) {
      QTest::newRow(name) << head + "y ~ " + call + "\n" << "{" + data + "}" << "m.vmod:4:5: error: " + message;
    };
    const QString negative = "got -1 (at index 2)";
    row("Normal sigma", "Normal(0, c * a)", real2, "Normal: argument 'sigma' must be positive, " + negative);
    row("HalfNormal sigma", "HalfNormal(c * a)", real2, "HalfNormal: argument 'sigma' must be positive, " + negative);
    row("Cauchy sigma", "Cauchy(0, c * a)", real2, "Cauchy: argument 'sigma' must be positive, " + negative);
    row("HalfCauchy sigma", "HalfCauchy(c * a)", real2, "HalfCauchy: argument 'sigma' must be positive, " + negative);
    row("StudentT nu", "StudentT(c * a, 0, 1)", real2, "StudentT: argument 'nu' must be positive, " + negative);
    row("StudentT sigma", "StudentT(3, 0, c * a)", real2, "StudentT: argument 'sigma' must be positive, " + negative);
    row("HalfStudentT nu", "HalfStudentT(c * a, 1)", real2, "HalfStudentT: argument 'nu' must be positive, " + negative);
    row("HalfStudentT sigma", "HalfStudentT(3, c * a)", real2,
        "HalfStudentT: argument 'sigma' must be positive, " + negative);
    row("Laplace sigma", "Laplace(0, c * a)", real2, "Laplace: argument 'sigma' must be positive, " + negative);
    row("Logistic sigma", "Logistic(0, c * a)", real2, "Logistic: argument 'sigma' must be positive, " + negative);
    row("LogNormal sigma", "LogNormal(0, c * a)", real2, "LogNormal: argument 'sigma' must be positive, " + negative);
    // The language's names, not the engine's (Gamma's shape and rate are its alpha and beta).
    row("Exponential rate", "Exponential(c * a)", real2, "Exponential: argument 'rate' must be positive, " + negative);
    row("Gamma shape", "Gamma(c * a, 1)", real2, "Gamma: argument 'shape' must be positive, " + negative);
    row("Gamma rate", "Gamma(1, c * a)", real2, "Gamma: argument 'rate' must be positive, " + negative);
    row("InvGamma shape", "InvGamma(c * a, 1)", real2, "InvGamma: argument 'shape' must be positive, " + negative);
    row("InvGamma scale", "InvGamma(1, c * a)", real2, "InvGamma: argument 'scale' must be positive, " + negative);
    row("Weibull shape", "Weibull(c * a, 1)", real2, "Weibull: argument 'shape' must be positive, " + negative);
    row("Weibull scale", "Weibull(1, c * a)", real2, "Weibull: argument 'scale' must be positive, " + negative);
    row("Beta a", "Beta(c * a, 1)", real2, "Beta: argument 'a' must be positive, " + negative);
    row("Beta b", "Beta(1, c * a)", real2, "Beta: argument 'b' must be positive, " + negative);

    const QString counts = "data c: real[2]\ndata y: int[2]\na ~ Exponential(1)\n";
    const auto count_row = [&](const char* name, const QString& call, const QString& data, const QString& message) {
      QTest::newRow(name) << counts + "y ~ " + call + "\n" << "{" + data + "}" << "m.vmod:4:5: error: " + message;
    };
    const QString ints = R"("c": [1, -1], "y": [1, 0])";
    count_row("Poisson rate", "Poisson(c * a)", ints, "Poisson: argument 'rate' must be non-negative, " + negative);
    count_row("NegBinomial2 mu", "NegBinomial2(c * a, 1)", ints,
              "NegBinomial2: argument 'mu' must be positive, " + negative);
    count_row("NegBinomial2 phi", "NegBinomial2(1, c * a)", ints,
              "NegBinomial2: argument 'phi' must be positive, " + negative);
    count_row("Bernoulli p", "Bernoulli(c * a)", R"("c": [0.5, 1.5], "y": [1, 0])",
              "Bernoulli: argument 'p' must be in [0, 1], got 1.5 (at index 2)");
    count_row("Binomial p", "Binomial(3, c * a)", R"("c": [0.5, 1.5], "y": [1, 0])",
              "Binomial: argument 'p' must be in [0, 1], got 1.5 (at index 2)");

    // Arguments with an event dimension: the index names the entry of the vector.
    QTest::newRow("Categorical p")
        << "data c: real[3]\ndata y: int\na ~ Exponential(1)\ny ~ Categorical(c * a)\n"
        << R"({"c": [0.5, -0.5, 1], "y": 1})"
        << "m.vmod:4:5: error: Categorical: argument 'p' must be a simplex (non-negative entries), got -0.5 (at index 2)";
    QTest::newRow("Dirichlet alpha")
        << "data c: real[3]\na ~ Exponential(1)\ntheta: simplex[3] ~ Dirichlet(c * a)\n"
        << R"({"c": [1, 2, -1]})"
        << "m.vmod:3:21: error: Dirichlet: argument 'alpha' must be positive, got -1 (at index 3)";
    QTest::newRow("LKJCorrCholesky eta")
        << "data c: real\na ~ Exponential(1)\nL: cholesky_corr[2] ~ LKJCorrCholesky(c * a)\n"
        << R"({"c": -1})"
        << "m.vmod:3:23: error: LKJCorrCholesky: argument 'eta' must be positive, got -1";
    QTest::newRow("MultiNormal Sigma")
        << "data S: real[2, 2]\ndata y: real[2]\na ~ Exponential(1)\ny ~ MultiNormal([0, 0], S * a)\n"
        << R"({"S": [[1, 0], [0, -1]], "y": [0, 0]})"
        << "m.vmod:4:5: error: MultiNormal: argument 'Sigma' must be positive definite";
    QTest::newRow("Mixture weights")
        << "data c: real[2]\ndata y: real\na ~ Exponential(1)\ny ~ Mixture(c * a, Normal([0, 1], 1))\n"
        << R"({"c": [1.5, -0.5], "y": 0})"
        << "m.vmod:4:5: error: Mixture: argument 'weights' must be a simplex (non-negative entries), got -0.5 (at index 2)";
  }

  void namesTheArgumentValueAndIndex() {
    QFETCH(QString, model);
    QFETCH(QString, data);
    QFETCH(QString, expected);
    const vm::CompileResult result = compile_text(model.toStdString(), data.toStdString());
    QVERIFY2(result.ok() && result.model, result.report().c_str());
    const QString report = QString::fromStdString(vm::report_invalid_argument(*result.model, *result.source));
    QVERIFY2(report.section('\n', 0, 0).startsWith(expected), qPrintable(report));
  }

  // Where an argument computed from parameters bounds the support of observed data
  // (Uniform's lo and hi), the data is checked at each point, not at the central one: the
  // density is 0 where the data is outside. With c * a < y, a < 0.35 here, and
  // `y ~ Uniform(0, theta)` with y up to 7 needs theta > 7 (the central theta is 1).
  void dataBoundedByParametersIsCheckedAtEachPoint_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("data");
    QTest::addColumn<double>("valid");    // the parameter there
    QTest::addColumn<double>("outside");  // where the data is outside the support
    QTest::newRow("Uniform's lo") << "data c: real[2]\ndata y: real[2]\na ~ Exponential(1)\ny ~ Uniform(c * a, 1)\n"
                                  << R"({"c": [0, 2], "y": [0.5, 0.7]})" << 0.1 << 1.0;
    QTest::newRow("Uniform's hi") << "data y: real[3]\ntheta ~ Exponential(0.1)\ny ~ Uniform(0, theta)\n"
                                  << R"({"y": [3, 5, 7]})" << 8.0 << 6.0;
  }
  void dataBoundedByParametersIsCheckedAtEachPoint() {
    QFETCH(QString, model);
    QFETCH(QString, data);
    QFETCH(double, valid);
    QFETCH(double, outside);
    const vm::CompileResult result = compile_text(model.toStdString(), data.toStdString());
    QVERIFY2(result.ok() && result.model, result.report().c_str());
    const variate::UnconstrainedTarget target = result.model->target();
    const auto at = [&](double value) {  // the parameter is positive: log on the unconstrained scale
      return target.log_density(at::full({1}, std::log(value), at::kDouble)).item<double>();
    };
    QVERIFY(std::isfinite(at(valid)));
    QCOMPARE(at(outside), -INFINITY);
  }

  // A model whose arguments are all valid has nothing to report, even where its density is
  // not finite for another reason.
  void validArgumentsReportNothing() {
    const vm::CompileResult result =
        compile_text("data y: real[2]\nmu ~ Normal(0, 1)\ny ~ Normal(mu, 1)\n", R"({"y": [0.5, 0.7]})");
    QVERIFY(result.ok() && result.model);
    QVERIFY(!vm::find_invalid_argument(*result.model));
    QCOMPARE(vm::report_invalid_argument(*result.model, *result.source), std::string());
  }

  // An argument invalid only away from the zero point is found at one of the seeded points.
  void anArgumentInvalidAwayFromZeroIsFound() {
    const vm::CompileResult result =
        compile_text("data y: real\nmu ~ Normal(0, 1)\ny ~ Normal(0, mu + 0.5)\n", R"({"y": 0.5})");
    QVERIFY(result.ok() && result.model);
    const auto invalid = vm::find_invalid_argument(*result.model);
    QVERIFY(invalid);
    QVERIFY2(QString(invalid->what()).startsWith("Normal: argument 'sigma' must be positive, got -"), invalid->what());
  }
};

QTEST_GUILESS_MAIN(TestInvalidArgument)
#include "tst_invalid_argument.moc"
